// Corrections for testing many comparisons at once. A run comparison tests every matched cell and
// every model, configuration and run row: at α = 0.05 each, 120 null cells give a false "regressed"
// more often than not. Holm controls the family-wise error (the chance of any false verdict), so it
// gates; Benjamini–Hochberg controls the expected share of false discoveries among those called, so
// it ranks the per-cell list. Both return adjusted values in input order, as R's p.adjust does.

function order(p: readonly number[]): number[] {
  return p.map((_, i) => i).sort((i, j) => p[i] - p[j] || i - j);
}

function assertPValues(p: readonly number[]): void {
  for (const v of p) if (!(v >= 0 && v <= 1)) throw new RangeError(`p-values must lie in [0, 1], got ${v}`);
}

/**
 * Holm's step-down adjustment (1979): the i-th smallest p (1-based) times (m − i + 1), made
 * non-decreasing, capped at 1. Rejecting where the adjusted p < α keeps the family-wise error ≤ α
 * under any dependence between the tests (ours are dependent: a cell is inside its model's row).
 */
export function holmAdjust(p: readonly number[]): number[] {
  assertPValues(p);
  const m = p.length;
  const out = new Array<number>(m);
  let running = 0;
  order(p).forEach((idx, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p[idx]));
    out[idx] = running;
  });
  return out;
}

/**
 * Benjamini–Hochberg step-up q-values (1995): the i-th smallest p times m / i, made non-increasing
 * from the largest down, capped at 1. Calling those with q < α keeps the false discovery rate ≤ α
 * for independent or positively dependent tests.
 */
export function benjaminiHochberg(p: readonly number[]): number[] {
  assertPValues(p);
  const m = p.length;
  const out = new Array<number>(m);
  const sorted = order(p);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const idx = sorted[rank];
    running = Math.min(running, (m / (rank + 1)) * p[idx]);
    out[idx] = running;
  }
  return out;
}
