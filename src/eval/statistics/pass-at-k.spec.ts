import { passAtK, passHatK } from './pass-at-k';

// Exact binomial coefficients with BigInt: the oracle is computed from the definitions, not from
// the products the implementation uses.
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
/** num / den as a double, with 30 significant digits kept through the division */
function ratio(num: bigint, den: bigint): number {
  const scale = 10n ** 30n;
  return Number((num * scale) / den) / 1e30;
}
const exactPassHat = (n: number, c: number, k: number) => ratio(choose(c, k), choose(n, k));
const exactPassAt = (n: number, c: number, k: number) => 1 - ratio(choose(n - c, k), choose(n, k));

describe('passAtK and passHatK', () => {
  // hand-computed: C(7,2)/C(10,2) = 21/45, C(3,2)/C(10,2) = 3/45, C(3,3)/C(5,3) = 1/10, C(2,3) = 0, …
  it.each([
    [10, 3, 2, 1 - 21 / 45, 3 / 45],
    [3, 1, 1, 1 / 3, 1 / 3],
    [3, 2, 2, 1, 1 / 3],
    [3, 3, 3, 1, 1],
    [3, 0, 3, 0, 0],
    [5, 2, 3, 1 - 1 / 10, 0],
    [5, 3, 3, 1, 1 / 10],
    [4, 2, 2, 5 / 6, 1 / 6],
  ])('n=%i c=%i k=%i → pass@k %f, pass^k %f', (n, c, k, at, hat) => {
    expect(passAtK(n, c, k)).toBeCloseTo(at, 12);
    expect(passHatK(n, c, k)).toBeCloseTo(hat, 12);
  });

  it('at k = 1 both are the plain pass rate', () => {
    for (const [n, c] of [
      [1, 0],
      [1, 1],
      [7, 3],
      [250, 199],
    ]) {
      expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 12);
      expect(passHatK(n, c, 1)).toBeCloseTo(c / n, 12);
    }
  });

  // sizes where factorials or even C(n, k) overflow doubles (C(3000, 200) ≈ 1e330)
  it.each([
    [50, 20, 5],
    [200, 150, 40],
    [1000, 500, 10],
    [3000, 2990, 200],
    [3000, 1500, 7],
    [4000, 3999, 4000],
    [2500, 2400, 60],
  ])('agrees with exact big-integer binomials at n=%i c=%i k=%i', (n, c, k) => {
    const hat = passHatK(n, c, k)!;
    const at = passAtK(n, c, k)!;
    expect(Number.isFinite(hat) && Number.isFinite(at)).toBe(true);
    const exactHat = exactPassHat(n, c, k);
    expect(Math.abs(hat - exactHat)).toBeLessThanOrEqual(1e-12 + 1e-10 * exactHat);
    expect(at).toBeCloseTo(exactPassAt(n, c, k), 12);
  });

  it('is null when k exceeds the trials there are', () => {
    expect(passAtK(3, 2, 4)).toBeNull();
    expect(passHatK(3, 3, 4)).toBeNull();
    expect(passHatK(0, 0, 1)).toBeNull();
  });

  it.each([
    [3, 4, 1],
    [3, -1, 1],
    [3, 1, 0],
    [3, 1, 1.5],
    [-1, 0, 1],
    [2.5, 1, 1],
  ])('rejects impossible arguments n=%p c=%p k=%p', (n, c, k) => {
    expect(() => passAtK(n, c, k)).toThrow(RangeError);
    expect(() => passHatK(n, c, k)).toThrow(RangeError);
  });
});
