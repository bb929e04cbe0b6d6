import { countTokens, tokenize } from './standin-tokenizer';

describe('tokenize', () => {
  it.each([
    ['The sky is blue today.', ['The', ' sky', ' is', ' blue', ' today', '.']],
    ['  lead and trail  ', ['  lead', ' and', ' trail', '  ']],
    ['line one\nline two', ['line', ' one', '\nline', ' two']],
    ['{"a": 1}', ['{"', 'a', '":', ' 1', '}']],
    ['"}}]', ['"}', '}]']],
    ['wait...', ['wait', '..', '.']],
    ['internationalization', ['inter', 'natio', 'naliz', 'ation']],
    ['requirement', ['requi', 'remen', 't']],
    ['weather', ['weather']],
    ['1234567', ['123', '456', '7']],
    ['日本 語', ['日', '本', ' 語']],
    ['   ', ['   ']],
    ['', []],
  ])('%p → %p', (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
    expect(countTokens(text)).toBe(expected.length);
  });

  it('always joins back to the input, and counts what it splits', () => {
    for (const text of ['a  b\t\tc\n', ' x', 'tool {"a": 1}  ', '日本 語 テキスト', 'snake_case_name(arg=3.14159)!', 'naïve café']) {
      expect(tokenize(text).join('')).toBe(text);
      expect(countTokens(text)).toBe(tokenize(text).length);
    }
    expect(countTokens(undefined)).toBe(0);
  });

  it('JSON lands near a BPE count too (about 3 characters a token)', () => {
    const schema = JSON.stringify({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Read a file',
        parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
      },
    });
    const charsPerToken = schema.length / countTokens(schema);
    expect(charsPerToken).toBeGreaterThan(2.5);
    expect(charsPerToken).toBeLessThan(4);
  });

  it('a long English prose word count lands near a BPE count (1.1–1.5 tokens a word)', () => {
    const prose = 'Please review this requirement carefully and keep it in mind while you work. '.repeat(20);
    const words = prose.trim().split(/\s+/).length;
    const ratio = countTokens(prose) / words;
    expect(ratio).toBeGreaterThan(1.1);
    expect(ratio).toBeLessThan(1.5);
  });
});
