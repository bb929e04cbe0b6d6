import { normalizeCallKey } from './normalize-call-key';

describe('normalizeCallKey', () => {
  it.each([
    { name: 'treats reordered keys as the same call', a: { b: 1, a: 2 }, b: { a: 2, b: 1 }, same: true },
    {
      name: 'sorts keys in nested objects too',
      a: { o: { y: 1, x: [{ q: 1, p: 2 }] } },
      b: { o: { x: [{ p: 2, q: 1 }], y: 1 } },
      same: true,
    },
    { name: 'trims strings and collapses whitespace runs', a: { path: '  src/a.ts ' }, b: { path: 'src/a.ts' }, same: true },
    { name: 'collapses inner whitespace including newlines', a: { cmd: 'ls   -la\n\tsrc' }, b: { cmd: 'ls -la src' }, same: true },
    { name: 'keeps different values apart', a: { path: 'a.ts' }, b: { path: 'b.ts' }, same: false },
    { name: 'keeps array order significant', a: { xs: [1, 2] }, b: { xs: [2, 1] }, same: false },
    { name: 'keeps a number apart from its string form', a: { n: 1 }, b: { n: '1' }, same: false },
    { name: 'keeps a missing key apart from a null one', a: {}, b: { x: null }, same: false },
  ])('$name', ({ a, b, same }) => {
    expect(normalizeCallKey('tool', a) === normalizeCallKey('tool', b)).toBe(same);
  });

  it('produces a readable key with the tool name', () => {
    expect(normalizeCallKey(' read_file ', { z: ' a  b ', a: { d: 1, c: 2 } })).toBe('read_file:{"a":{"c":2,"d":1},"z":"a b"}');
  });

  it('keeps tool names apart for the same arguments', () => {
    expect(normalizeCallKey('read_file', { path: 'a' })).not.toBe(normalizeCallKey('write_file', { path: 'a' }));
  });
});
