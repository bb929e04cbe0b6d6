// indexOf with memory. Scanners look for the next occurrence of several markers from a cursor that
// only moves forward; re-running indexOf for a marker that is far away (or absent) at every step
// would make a scan quadratic. A finder remembers its last answer and reuses it while it is ahead.

export type MarkerFinder = (from: number) => number;

export function createFinder(text: string, needle: string): MarkerFinder {
  let cachedFrom = -1;
  let cachedAt = -1;
  return (from: number) => {
    if (cachedFrom !== -1 && from >= cachedFrom && (cachedAt === -1 || cachedAt >= from)) return cachedAt;
    cachedFrom = from;
    cachedAt = text.indexOf(needle, from);
    return cachedAt;
  };
}

/** The earliest of several markers at or after `from`: its index and which one, or undefined. */
export function findFirst(
  finders: ReadonlyArray<{ marker: string; find: MarkerFinder }>,
  from: number,
): { at: number; marker: string } | undefined {
  let best: { at: number; marker: string } | undefined;
  for (const f of finders) {
    const at = f.find(from);
    if (at !== -1 && (best === undefined || at < best.at)) best = { at, marker: f.marker };
  }
  return best;
}

export function finders(text: string, markers: readonly string[]): Array<{ marker: string; find: MarkerFinder }> {
  return markers.map((marker) => ({ marker, find: createFinder(text, marker) }));
}

/**
 * The same memory as createFinder in a reusable object: a scanner that searches every one of tens
 * of thousands of call bodies resets one of these per body instead of allocating a closure.
 */
export class ScratchFinder {
  private text = '';
  private needle = '';
  private cachedFrom = -1;
  private cachedAt = -1;

  reset(text: string, needle: string): this {
    this.text = text;
    this.needle = needle;
    this.cachedFrom = -1;
    this.cachedAt = -1;
    return this;
  }

  find(from: number): number {
    if (this.cachedFrom !== -1 && from >= this.cachedFrom && (this.cachedAt === -1 || this.cachedAt >= from)) return this.cachedAt;
    this.cachedFrom = from;
    this.cachedAt = this.text.indexOf(this.needle, from);
    return this.cachedAt;
  }
}
