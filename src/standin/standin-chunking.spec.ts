import { splitIntoDeltas } from './standin-chunking';

describe('splitIntoDeltas', () => {
  it.each([
    ['Hello there, world!', ['Hello', ' there', ',', ' world', '!']],
    ['  lead and trail  ', ['  lead', ' and', ' trail', '  ']],
    ['line one\nline two', ['line', ' one', '\nline', ' two']],
    ['single', ['single']],
    ['   ', ['   ']],
    ['', []],
  ])('%p → %p (one delta per token)', (text, expected) => {
    expect(splitIntoDeltas(text)).toEqual(expected);
  });

  it('always joins back to the input', () => {
    for (const text of ['a  b\t\tc\n', ' x', 'tool {"a": 1}  ', '日本 語 テキスト']) {
      expect(splitIntoDeltas(text).join('')).toBe(text);
    }
  });
});
