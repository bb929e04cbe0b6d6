// Which spec items are checked, and by what: a scenario names items in `covers:` (a Behavioral
// Example is also covered by a scenario whose `spec:` names its heading), a test file in a
// `// covers: <id>, <id>` comment. Pure: the CLI reads the files.
import { editDistance } from '../../common/closest-name';
import type { SpecItem } from './spec-catalogue';

export interface ItemCoverage {
  item: SpecItem;
  /** scenario ids */
  scenarios: string[];
  /** test files, relative to the project */
  tests: string[];
  /** why the item cannot apply to Loupe (specs/not-applicable.yaml) */
  notApplicable?: string;
}

export interface CoveringScenario {
  id: string;
  spec: string;
  covers?: readonly string[];
}

export interface CoveringTest {
  file: string;
  covers: readonly string[];
}

export function itemCoverage(
  items: readonly SpecItem[],
  scenarios: readonly CoveringScenario[],
  tests: readonly CoveringTest[],
  notApplicable: Readonly<Record<string, string>> = {},
): ItemCoverage[] {
  return items.map((item) => ({
    item,
    ...(notApplicable[item.id] ? { notApplicable: notApplicable[item.id] } : {}),
    scenarios: scenarios
      .filter((s) => s.covers?.includes(item.id) || (item.anchor !== undefined && s.spec === `${item.spec}#${item.anchor}`))
      .map((s) => s.id),
    tests: tests.filter((t) => t.covers.includes(item.id)).map((t) => t.file),
  }));
}

export interface CoverMarker {
  id: string;
  line: number;
}

const MARKER = /^\s*(?:\/\/|\*|#)\s*covers:\s*(.+?)\s*(?:\*\/)?\s*$/;

/** The ids a test file's `// covers: a#x, b#y` comments name, with their lines. */
export function coverMarkers(text: string): CoverMarker[] {
  const markers: CoverMarker[] = [];
  text.split('\n').forEach((line, i) => {
    const m = MARKER.exec(line);
    if (!m) return;
    for (const id of m[1].split(/[\s,]+/).filter(Boolean)) markers.push({ id, line: i + 1 });
  });
  return markers;
}

/** The catalogue id nearest to an unknown one (always one: ids are many, and a near miss is the usual mistake). */
export function closestItemId(id: string, known: readonly string[]): string | undefined {
  const [spec] = id.split('#');
  // prefer the same spec's items: `direct-process#invariant-13` should not suggest another spec's invariant-1
  const sameSpec = known.filter((k) => k.startsWith(`${spec}#`));
  const pool = sameSpec.length ? sameSpec : known;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of pool) {
    const d = editDistance(id, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

export function unknownItemMessage(id: string, known: readonly string[]): string {
  const closest = closestItemId(id, known);
  return `unknown spec item "${id}"${closest ? `; the closest is "${closest}"` : ''} (the items are in specs/spec-catalogue.json)`;
}

/** `covers:` problems of a parsed scenario document, by field path (the catalogue is read only when a scenario has `covers:`). */
export function unknownCovers(doc: unknown, catalogue: () => readonly string[]): Array<{ path: Array<string | number>; message: string }> {
  const covers = (doc as { covers?: unknown } | null)?.covers;
  if (!Array.isArray(covers)) return [];
  const known = catalogue();
  const set = new Set(known);
  return covers.flatMap((id, i) =>
    typeof id === 'string' && !set.has(id) ? [{ path: ['covers', i], message: unknownItemMessage(id, known) }] : [],
  );
}

export interface SpecTally {
  spec: string;
  covered: number;
  notApplicable: number;
  total: number;
}

/** Checked by a scenario or a test. */
export function isCovered(r: ItemCoverage): boolean {
  return r.scenarios.length > 0 || r.tests.length > 0;
}

export function tallyBySpec(rows: readonly ItemCoverage[]): SpecTally[] {
  const by = new Map<string, SpecTally>();
  for (const r of rows) {
    const t = by.get(r.item.spec) ?? { spec: r.item.spec, covered: 0, notApplicable: 0, total: 0 };
    t.total++;
    if (isCovered(r)) t.covered++;
    else if (r.notApplicable) t.notApplicable++;
    by.set(r.item.spec, t);
  }
  return [...by.values()];
}
