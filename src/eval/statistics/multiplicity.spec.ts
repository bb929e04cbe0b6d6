import { benjaminiHochberg, holmAdjust } from './multiplicity';

// Expected values are R's p.adjust(p, "holm") and p.adjust(p, "BH"), worked by hand from the
// definitions beside each case.
describe('holmAdjust', () => {
  it('multiplies the i-th smallest p by m − i + 1 and keeps the result non-decreasing, in input order', () => {
    // sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → cummax 0.06
    const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adj[i]).toBeCloseTo(v, 12));
  });

  it('caps at 1 and gives equal p-values equal adjustments', () => {
    // 0.5·3 = 1.5 → 1; 0.5·2 = 1 ; 0.9·1 → cummax 1
    expect(holmAdjust([0.5, 0.5, 0.9])).toEqual([1, 1, 1]);
    // five equal p = 0.0079: the smallest is multiplied by 5, the rest follow it up
    holmAdjust(Array(5).fill(0.0079)).forEach((v) => expect(v).toBeCloseTo(0.0395, 12));
  });

  it('leaves a single test and an empty family as they are', () => {
    expect(holmAdjust([0.03])).toEqual([0.03]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('refuses what is not a p-value', () => {
    expect(() => holmAdjust([0.1, Number.NaN])).toThrow(RangeError);
    expect(() => holmAdjust([1.2])).toThrow(RangeError);
  });
});

describe('benjaminiHochberg', () => {
  it('multiplies the i-th smallest p by m / i and keeps the result non-increasing from the top, in input order', () => {
    // sorted 0.005·4/1 = 0.02, 0.01·4/2 = 0.02, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 12));
  });

  it('takes the smaller value of a larger p when it is smaller (the step-up)', () => {
    // 0.5·3/1 = 1.5, 0.5·3/2 = 0.75, 0.9·3/3 = 0.9 → cummin from the top: 0.9, 0.75, 0.75
    const q = benjaminiHochberg([0.5, 0.5, 0.9]);
    [0.75, 0.75, 0.9].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 12));
    // 0.01·3/1 = 0.03, 0.02·3/2 = 0.03, 0.03·3/3 = 0.03
    benjaminiHochberg([0.03, 0.01, 0.02]).forEach((v) => expect(v).toBeCloseTo(0.03, 12));
  });

  it('is never above Holm (it controls a weaker error rate)', () => {
    const p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216];
    const holm = holmAdjust(p);
    benjaminiHochberg(p).forEach((q, i) => expect(q).toBeLessThanOrEqual(holm[i] + 1e-15));
    // p = 0.008: BH 0.008·10/2 = 0.04 (significant at 0.05), Holm 0.008·9 = 0.072 (not)
    expect(benjaminiHochberg(p)[1]).toBeCloseTo(0.04, 12);
    expect(holm[1]).toBeCloseTo(0.072, 12);
  });
});
