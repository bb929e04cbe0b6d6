// The closing line of a comparison. Apart from compare.ts so that the CLI's eager modules can print
// it without loading the exact tests' libraries.
import type { RunComparison } from './comparison-types';

/** `2 regressed, 1 improved, 118 unchanged, 3 not compared (family of 121 tests, Holm α=0.05)`, and BH's count where it differs */
export function comparisonSummaryLine(r: RunComparison): string {
  const { regressed, improved, unchanged, notCompared } = r.counts;
  const fdr = r.fdrCounts;
  const bh =
    fdr.regressed !== regressed || fdr.improved !== improved
      ? `; by Benjamini–Hochberg q<${r.alpha}: ${fdr.regressed} regressed, ${fdr.improved} improved`
      : '';
  return `${regressed} regressed, ${improved} improved, ${unchanged} unchanged, ${notCompared} not compared (family of ${r.family} ${r.family === 1 ? 'test' : 'tests'} over cells, models, configurations and the run, Holm α=${r.alpha}${bh})`;
}
