import { PromptCache, commonPrefixLength } from './standin-prompt-cache';

describe('prompt cache', () => {
  it('common prefix of two token lists', () => {
    expect(commonPrefixLength(['a', 'b', 'c'], ['a', 'b', 'x'])).toBe(2);
    expect(commonPrefixLength(['a'], ['a', 'b'])).toBe(1);
    expect(commonPrefixLength([], ['a'])).toBe(0);
  });

  it('reuses the previous prompt of the same runner only', () => {
    const cache = new PromptCache();
    expect(cache.take('m', 1, true, ['a', 'b', 'c'])).toBe(0);
    expect(cache.take('m', 1, false, ['a', 'b', 'c', 'd'])).toBe(3);
    expect(cache.take('other', 1, false, ['a', 'b'])).toBe(0);
    // a reload (new runner, or this request loaded it) starts empty
    expect(cache.take('m', 2, false, ['a', 'b', 'c', 'd'])).toBe(0);
    expect(cache.take('m', 2, true, ['a', 'b', 'c', 'd'])).toBe(0);
    expect(cache.take('m', 2, false, ['a', 'x'])).toBe(1);
  });
});
