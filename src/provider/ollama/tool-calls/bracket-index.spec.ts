import { buildBracketIndex } from './bracket-index';

describe('buildBracketIndex', () => {
  it('pairs brackets and ignores those inside strings', () => {
    const text = '{"a": "}", "b": [1, "]"]}';
    const index = buildBracketIndex(text);
    expect(index.matchOf(0)).toBe(text.length - 1);
    expect(index.matchOf(text.indexOf('['))).toBe(text.length - 2);
  });

  it('is not thrown off by apostrophes and quotes in prose', () => {
    const text = `it's "odd" {"k": 'v'} and [x]`;
    const index = buildBracketIndex(text);
    expect(index.matchOf(text.indexOf('{'))).toBe(text.indexOf('}'));
    expect(index.matchOf(text.indexOf('['))).toBe(text.indexOf(']'));
  });

  it('leaves unmatched openers unmatched and skips stray closers', () => {
    const text = '] { [ }';
    const index = buildBracketIndex(text);
    expect(index.matchOf(2)).toBe(6);
    expect(index.matchOf(4)).toBe(-1);
    expect(index.matchOf(0)).toBe(-1);
  });
});
