// pass@k (Chen et al. 2021, Inspect's pass_at_k): the chance that at least one of k trials drawn
// without replacement from n passes. pass^k (τ²-bench's pass_hat_k): the chance that all k pass.
// Both are ratios of binomial coefficients, computed as running products of factors ≤ 1 so that
// n in the thousands neither overflows (C(3000, 50) ≈ 1e109) nor loses precision.

function check(n: number, c: number, k: number): void {
  for (const [name, v] of [
    ['n', n],
    ['c', c],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
  }
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (c > n) throw new RangeError(`c (${c}) exceeds n (${n})`);
}

/** C(m, k) / C(n, k) for m ≤ n = ∏_{i<k} (m − i) / (n − i); 0 once m < k. */
function binomialRatio(m: number, n: number, k: number): number {
  if (m < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (m - i) / (n - i);
  return r;
}

/** 1 − C(n−c, k) / C(n, k); null when k > n (k distinct trials cannot be drawn). */
export function passAtK(n: number, c: number, k: number): number | null {
  check(n, c, k);
  if (k > n) return null;
  return 1 - binomialRatio(n - c, n, k);
}

/** C(c, k) / C(n, k); null when k > n. */
export function passHatK(n: number, c: number, k: number): number | null {
  check(n, c, k);
  if (k > n) return null;
  return binomialRatio(c, n, k);
}
