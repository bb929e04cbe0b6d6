import { formatGoTime, goJson, sortKeysDeep } from './standin-go-json';

describe('goJson', () => {
  it('escapes <, > and & like Go', () => {
    expect(goJson({ a: '<b>&c' })).toBe('{"a":"\\u003cb\\u003e\\u0026c"}');
    expect(JSON.parse(goJson({ a: '<b>&c\u2028' }))).toEqual({ a: '<b>&c\u2028' });
  });

  it('sorts map keys deeply', () => {
    expect(JSON.stringify(sortKeysDeep({ b: 1, a: { d: 1, c: [{ z: 1, y: 2 }] } }))).toBe('{"a":{"c":[{"y":2,"z":1}],"d":1},"b":1}');
  });
});

describe('formatGoTime', () => {
  it('prints RFC3339 with trailing zeros trimmed, UTC as Z', () => {
    const base = BigInt(Date.UTC(2025, 6, 7, 20, 22, 19)) * 1_000_000n;
    expect(formatGoTime(base + 184_789_000n)).toBe('2025-07-07T20:22:19.184789Z');
    expect(formatGoTime(base + 193_140_000n)).toBe('2025-07-07T20:22:19.19314Z');
    expect(formatGoTime(base)).toBe('2025-07-07T20:22:19Z');
    expect(formatGoTime(base + 1n)).toBe('2025-07-07T20:22:19.000000001Z');
  });

  it('local times carry the process offset', () => {
    const text = formatGoTime(BigInt(Date.UTC(2025, 0, 1)) * 1_000_000n, true);
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(Date.parse(text)).toBe(Date.UTC(2025, 0, 1));
  });
});
