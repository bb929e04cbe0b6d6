import { countWords, evalTokenCount, promptTokenCount, splitIntoDeltas } from './standin-chunking';

describe('splitIntoDeltas', () => {
  it.each([
    ['Hello there, world!', ['Hello', ' there,', ' world!']],
    ['  lead and trail  ', ['  lead', ' and', ' trail  ']],
    ['line one\nline two', ['line', ' one', '\nline', ' two']],
    ['single', ['single']],
    ['   ', ['   ']],
    ['', []],
  ])('%p → %p', (text, expected) => {
    expect(splitIntoDeltas(text)).toEqual(expected);
  });

  it('always joins back to the input', () => {
    for (const text of ['a  b\t\tc\n', ' x', 'tool {"a": 1}  ', '日本 語 テキスト']) {
      expect(splitIntoDeltas(text).join('')).toBe(text);
    }
  });
});

describe('token counts', () => {
  it('counts whitespace-separated words', () => {
    expect(countWords('one two  three\nfour')).toBe(4);
    expect(countWords('')).toBe(0);
    expect(countWords(undefined)).toBe(0);
  });

  it('prompt_eval_count covers content, thinking and tool calls of every message', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'weather in Tokyo?' },
      {
        role: 'assistant',
        content: '',
        thinking: 'use the tool',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Tokyo' } } }],
      },
      { role: 'tool', content: '11 degrees' },
    ];
    // 3 + 3 + 3 (thinking) + 2 (get_weather {"city":"Tokyo"}) + 2
    expect(promptTokenCount(messages)).toBe(13);
    expect(promptTokenCount([])).toBe(1);
    expect(promptTokenCount(undefined)).toBe(1);
  });

  it('eval_count covers thinking, content and tool calls, at least 1', () => {
    expect(evalTokenCount({ thinking: 'a b', content: 'c d e' })).toBe(5);
    expect(evalTokenCount({ toolCalls: [{ name: 'f', arguments: { x: 1 } }] })).toBe(2);
    expect(evalTokenCount({})).toBe(1);
  });
});
