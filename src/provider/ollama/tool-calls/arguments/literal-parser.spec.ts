import { parseLiteral, parseLooseJson } from './literal-parser';

describe('parseLooseJson', () => {
  it.each<[string, string, unknown]>([
    ['strict JSON', '{"a": [1, 2.5, true, null], "b": "\\u00e9"}', { a: [1, 2.5, true, null], b: 'é' }],
    ['single quotes and Python constants', "{'on': True, 'off': None}", { on: true, off: null }],
    ['bare keys', '{ticker: "X", days: 2}', { ticker: 'X', days: 2 }],
    ['trailing commas', '[1, 2, {"k": 3,},]', [1, 2, { k: 3 }]],
    ['a raw line break inside a string', '{"text": "one\ntwo"}', { text: 'one\ntwo' }],
    ['surrogate pairs written as escapes', '"\\ud83d\\ude00"', '😀'],
  ])('reads %s', (_label, text, expected) => {
    expect(parseLooseJson(text)).toEqual(expected);
  });

  it.each([
    ['trailing garbage', '{"a": 1} and more'],
    ['an unterminated object', '{"a": 1'],
    ['a number glued to a word', '[2024-05-01]'],
    ['empty text', '   '],
  ])('rejects %s', (_label, text) => {
    expect(parseLooseJson(text)).toBeUndefined();
  });

  it('gives up on very deep nesting instead of overflowing the stack', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(() => parseLiteral(deep, 0)).not.toThrow();
    expect(parseLiteral(deep, 0).ok).toBe(false);
  });

  it('reports where a value ends so callers can continue after it', () => {
    expect(parseLiteral('  {"a": 1} rest', 0)).toEqual({ ok: true, value: { a: 1 }, end: 10 });
  });
});
