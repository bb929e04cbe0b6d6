import { readCallList, readJsonValue } from './json-calls';

describe('readCallList', () => {
  it('keeps the well-formed calls around a malformed element', () => {
    const text = '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": }}, {"name": "c", "arguments": {"y": 1}}] tail';
    expect(readCallList(text, 0)).toEqual({
      calls: [
        { name: 'a', arguments: {} },
        { name: 'c', arguments: { y: 1 } },
      ],
      end: text.indexOf(' tail'),
      closed: true,
    });
  });

  it('reads a list cut off after its last whole element', () => {
    const text = '[{"name": "a", "arguments": {}}, {"name": "b", "argu';
    expect(readCallList(text, 0)).toEqual({ calls: [{ name: 'a', arguments: {} }], end: text.indexOf(', {"name": "b"'), closed: false });
  });

  it('is undefined for a list with no call in it', () => {
    expect(readCallList('[1, 2, {"x": 3}]', 0)).toBeUndefined();
  });

  it('takes a converter for other call shapes', () => {
    const short = (v: unknown) =>
      v && typeof v === 'object'
        ? Object.entries(v).map(([name, args]) => ({ name, arguments: args as Record<string, unknown> }))
        : undefined;
    expect(readCallList('[{"f": {"a": 1}}]', 0, short)?.calls).toEqual([{ name: 'f', arguments: { a: 1 } }]);
  });
});

describe('readJsonValue', () => {
  it.each<[string, string, unknown]>([
    ['strict JSON', '{"a": [1, 2]} rest', { a: [1, 2] }],
    ['a Python dict', "{'a': True} rest", { a: true }],
    ['bare keys', '{a: 1} rest', { a: 1 }],
  ])('reads %s and says where it ends', (_label, text, value) => {
    expect(readJsonValue(text, 0)).toEqual({ value, end: text.indexOf(' rest') });
  });

  it('gives up on brackets that never close', () => {
    expect(readJsonValue('{"a": [1, 2', 0)).toBeUndefined();
  });
});
