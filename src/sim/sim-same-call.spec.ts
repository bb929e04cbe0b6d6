// sameCall compares arguments in place (sameJson) instead of building both canonical texts; it must
// agree with canonicalJson equality on every value, and variedCall (which builds its candidates
// lazily) must still pick the first one that is not a plan step or the call itself.
import { seededRandom } from '../common/seeded-random';
import { variedCall } from './sim-render';
import { canonicalJson, sameCall, sameJson } from './sim-texts';
import type { SimPlan } from './sim-types';

/** A small random JSON-ish value (with the odd undefined member and NaN), drawn from a few leaves so that equal pairs occur. */
function value(rng: () => number, depth = 0): unknown {
  const r = rng();
  if (depth < 3 && r < 0.25) {
    const o: Record<string, unknown> = {};
    const keys = ['a', 'b', 'c'].filter(() => rng() < 0.6);
    // both key orders, so that order-insensitivity is exercised
    if (rng() < 0.5) keys.reverse();
    for (const k of keys) o[k] = rng() < 0.1 ? undefined : value(rng, depth + 1);
    return o;
  }
  if (depth < 3 && r < 0.4) return Array.from({ length: Math.floor(rng() * 3) }, () => (rng() < 0.05 ? undefined : value(rng, depth + 1)));
  const leaves: unknown[] = ['x', '1', 1, 0, -0, true, false, null, NaN, '', 'a'];
  return leaves[Math.floor(rng() * leaves.length)];
}

describe('sameJson', () => {
  it('agrees with canonicalJson equality', () => {
    const rng = seededRandom(11);
    let equal = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const a = value(rng);
      const b = rng() < 0.3 ? structuredClone(a) : value(rng);
      const expected = canonicalJson(a) === canonicalJson(b);
      if (expected) equal++;
      if (sameJson(a, b) !== expected) disagreements.push(`${canonicalJson(a)} vs ${canonicalJson(b)}`);
    }
    expect(disagreements).toEqual([]);
    // both answers were exercised
    expect(equal).toBeGreaterThan(250);
    expect(equal).toBeLessThan(4_750);
  });

  it('tells apart what canonical texts tell apart', () => {
    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ b: 2, a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, c: 3 })).toBe(false);
    expect(sameCall({ name: 'read_file', arguments: { path: 'a' } }, { name: 'read_file', arguments: { path: 'a' } })).toBe(true);
    expect(sameCall({ name: 'read_file', arguments: { path: 'a' } }, { name: 'read', arguments: { path: 'a' } })).toBe(false);
  });
});

describe('variedCall', () => {
  const plan: SimPlan = {
    steps: [
      { name: 'read_file', arguments: { path: 'a.txt' } },
      { name: 'read_file', arguments: { path: './a.txt' } },
    ],
    finalAnswer: 'done',
  };

  it('skips candidates that are plan steps or the call itself, in order', () => {
    // rng 0: string variants start at ./ — a plan step — so the next variant, .orig
    expect(variedCall(plan.steps[0], plan, () => 0)).toEqual({ name: 'read_file', arguments: { path: 'a.txt.orig' } });
  });

  it('falls back to a flag, then to an attempt number, when every variant is taken', () => {
    const call = { name: 'list_files', arguments: { n: 1 } };
    const taken: SimPlan = {
      steps: [
        { name: 'list_files', arguments: { n: 2 } },
        { name: 'list_files', arguments: { n: 1, verbose: true } },
      ],
      finalAnswer: '',
    };
    expect(variedCall(call, taken, () => 0)).toEqual({ name: 'list_files', arguments: { n: 1, recursive: true } });
    const all: SimPlan = {
      steps: [...taken.steps, ...['recursive', 'all'].map((f) => ({ name: 'list_files', arguments: { n: 1, [f]: true } }))],
      finalAnswer: '',
    };
    expect(variedCall(call, all, () => 0)).toEqual({ name: 'list_files', arguments: { n: 1, attempt: 2 } });
  });
});
