// The time left in a run, for the progress line: the median finished trial's duration times the
// waves of trials still to run at the run's concurrency. The median moves little from one trial to
// the next (a mean or the rate since the start swings with every slow or instant trial), and the
// text is rounded once, from whole seconds, so it never reads `1m60s`.

export interface EtaInput {
  /** durations of the trials finished so far, in any order */
  finishedMs: readonly number[];
  /** trials not finished yet (running ones included) */
  remaining: number;
  /** trials run at once */
  concurrency: number;
  /** `finishedMs` is kept in ascending order (insertSorted): the median is read, not sorted for */
  sorted?: boolean;
}

export function median(values: readonly number[], presorted = false): number | undefined {
  if (!values.length) return undefined;
  const sorted = presorted ? values : [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Inserts `value` into the ascending `values` (a sort per finished trial made a long run's progress O(n² log n)). */
export function insertSorted(values: number[], value: number): void {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  values.splice(lo, 0, value);
}

/** Milliseconds left, or undefined before any trial has finished (nothing to go on yet). */
export function estimateRemainingMs({ finishedMs, remaining, concurrency, sorted }: EtaInput): number | undefined {
  if (remaining <= 0) return 0;
  const typical = median(finishedMs, sorted);
  if (typical === undefined) return undefined;
  // fewer trials left than slots: they run side by side, one wave
  const waves = remaining / Math.max(1, Math.min(concurrency, remaining));
  return typical * waves;
}

/** `45s`, `1m05s`, `12m`, `1h05m`; `–` when unknown. Above ten minutes the seconds are noise. */
export function formatEta(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  const totalS = Math.max(0, Math.round(ms / 1000));
  if (totalS < 60) return `${totalS}s`;
  if (totalS < 600) return `${Math.floor(totalS / 60)}m${String(totalS % 60).padStart(2, '0')}s`;
  const totalM = Math.round(totalS / 60);
  if (totalM < 60) return `${totalM}m`;
  return `${Math.floor(totalM / 60)}h${String(totalM % 60).padStart(2, '0')}m`;
}
