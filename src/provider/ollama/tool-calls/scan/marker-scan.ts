// The one pass over a reply that says which markers occur in it, so that only the scanners whose
// markers are present run at all (most replies hold one format or none). A single global regex
// over every marker literal is one native scan. A reply that repeats a marker endlessly would make
// that scan stop at every repetition, so after a few thousand hits the scan goes on with a regex
// of only the markers not seen yet: the cost stays linear whatever the reply repeats.

/** The marker literals found in a reply. */
export type MarkerSet = ReadonlySet<string>;

export type MarkerFinderFn = (text: string) => MarkerSet;

const MAX_MATCHES = 4096;
const NONE: MarkerSet = new Set<string>();

/**
 * A finder for a fixed list of literals. No literal may be a prefix of another: the regex
 * reports one literal per position, and a prefix would hide the longer one.
 */
export function createMarkerFinder(literals: readonly string[]): MarkerFinderFn {
  const unique = [...new Set(literals)].sort((a, b) => b.length - a.length);
  for (const a of unique) {
    const shadowing = unique.find((b) => b !== a && a.startsWith(b));
    if (shadowing) throw new Error(`marker ${JSON.stringify(shadowing)} is a prefix of ${JSON.stringify(a)}`);
  }
  const patternOf = (list: readonly string[]) => new RegExp(list.map(escapeRegExp).join('|'), 'g');
  const full = patternOf(unique);
  return (text: string) => {
    let pattern = full;
    pattern.lastIndex = 0;
    let m = pattern.exec(text);
    if (m === null) return NONE; // most replies: no marker at all
    const seen = new Set<string>();
    let count = 0;
    for (; m !== null; m = pattern.exec(text)) {
      seen.add(m[0]);
      if (++count >= MAX_MATCHES) {
        const rest = unique.filter((l) => !seen.has(l));
        if (rest.length === 0) break;
        const from = pattern.lastIndex;
        pattern = patternOf(rest);
        pattern.lastIndex = from;
        count = 0;
      }
    }
    return seen;
  };
}

/** Whether any of `markers` was found. */
export function anyMarker(found: MarkerSet, markers: ReadonlySet<string>): boolean {
  if (found.size === 0) return false;
  for (const marker of found) if (markers.has(marker)) return true;
  return false;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
