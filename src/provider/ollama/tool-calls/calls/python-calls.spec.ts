import { parsePythonArgs, parsePythonCall, parsePythonCallList } from './python-calls';

describe('parsePythonArgs', () => {
  it.each<[string, string, Record<string, unknown>]>([
    ['empty text', '', {}],
    ['strings and an integer', 'city="Lyon", days=3', { city: 'Lyon', days: 3 }],
    ['a quoted number stays a string', 'zip="01234", code=\'42\'', { zip: '01234', code: '42' }],
    ['True/False/None and JSON spellings', 'a=True, b=False, c=None, d=true, e=null', { a: true, b: false, c: null, d: true, e: null }],
    ['negative and exponent numbers', 't=-1.5e2, n=+0', { t: -150, n: '+0' }],
    [
      'nested lists and dicts, trailing comma',
      "tags=['x', \"y\"], cfg={'deep': {'list': [1, {'ok': True}]}, 'n': 2},",
      { tags: ['x', 'y'], cfg: { deep: { list: [1, { ok: true }] }, n: 2 } },
    ],
    ['a tuple becomes a list', 'point=(3, 4)', { point: [3, 4] }],
    ['escapes in both quote styles', 'msg="say \\"hi\\"\\n", path=\'C:\\\\tmp\\\\x\'', { msg: 'say "hi"\n', path: 'C:\\tmp\\x' }],
    ['an unknown escape keeps its backslash', 'pattern="\\d+"', { pattern: '\\d+' }],
    ['triple-quoted text spanning lines', "body='''line one\nline two'''", { body: 'line one\nline two' }],
    ['an unquoted word', 'unit=celsius, date=2024-05-01', { unit: 'celsius', date: '2024-05-01' }],
    ['surrounding parentheses', '(q="ramen", limit=5)', { q: 'ramen', limit: 5 }],
    ['a JSON object as a whole', '{"a": [1, 2], "b": "c"}', { a: [1, 2], b: 'c' }],
    ['unicode text', 'name="東京 🗼"', { name: '東京 🗼' }],
    ['stops at the first malformed pair', 'a=1, b=, c=3', { a: 1 }],
    ['an unterminated string yields the pairs before it', 'a="ok", b="never closed', { a: 'ok' }],
  ])('%s', (_label, input, expected) => {
    expect(parsePythonArgs(input)).toEqual(expected);
  });

  it('never throws on non-string input', () => {
    expect(parsePythonArgs(undefined as unknown as string)).toEqual({});
  });
});

describe('parsePythonCall', () => {
  it('reads a Llama built-in written name.call(...)', () => {
    const text = 'brave_search.call(query="tides") then';
    expect(parsePythonCall(text, 0)).toEqual({
      name: 'brave_search',
      arguments: { query: 'tides' },
      positional: undefined,
      end: text.indexOf(' then'),
    });
  });

  it('keeps positional literals apart from keyword arguments', () => {
    expect(parsePythonCall('f("a", 2, k=3)', 0)).toMatchObject({ name: 'f', arguments: { k: 3 }, positional: ['a', 2] });
  });

  it('rejects a bare variable as a positional argument', () => {
    expect(parsePythonCall('read(path)', 0)).toBeUndefined();
  });
});

describe('parsePythonCallList', () => {
  it('reads a bracketed list of calls and stops at its end', () => {
    const text = '[a(x=1), b(y="z")] tail';
    expect(parsePythonCallList(text, 0)).toEqual({
      calls: [
        { name: 'a', arguments: { x: 1 }, positional: undefined, end: text.indexOf(',') },
        { name: 'b', arguments: { y: 'z' }, positional: undefined, end: text.indexOf(']') },
      ],
      end: text.indexOf(' tail'),
    });
  });

  it('rejects an unclosed list', () => {
    expect(parsePythonCallList('[a(x=1), b(', 0)).toBeUndefined();
  });
});
