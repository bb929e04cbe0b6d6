// The run's pathologies as a small table, most frequent first: one row per pathology seen, with
// how many judged trials had it and the share with its 95% Wilson interval. Pure.
import { comparePathologyKeys } from '../eval/statistics/pathology-keys';
import type { Proportion } from '../eval/statistics/statistics-types';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(x === 1 || x === 0 ? 0 : 1)}%`);

function pad(s: string, n: number, right = false): string {
  if (s.length >= n) return s;
  return right ? ' '.repeat(n - s.length) + s : s + ' '.repeat(n - s.length);
}

/** Lines of the table, or none when no judged trial had a pathology. */
export function pathologyTable(pathologies: Partial<Record<string, Proportion>>): string[] {
  const seen = Object.entries(pathologies)
    .filter((e): e is [string, Proportion] => Boolean(e[1]) && e[1]!.successes > 0)
    .sort(([ka, a], [kb, b]) => b.successes - a.successes || comparePathologyKeys(ka, kb));
  if (!seen.length) return [];
  const rows = seen.map(([key, p]) => [key, `${p.successes}/${p.n}`, pct(p.rate), `[${pct(p.lo)}–${pct(p.hi)}]`]);
  const header = ['PATHOLOGY', 'TRIALS', 'SHARE', '95% CI'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // numbers right-aligned so the column reads down
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i], i === 1 || i === 2))
      .join('  ')
      .trimEnd();
  return ['Pathologies (judged trials with at least one):', line(header), ...rows.map(line)];
}
