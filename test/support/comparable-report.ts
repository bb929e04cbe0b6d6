// What two runs of the same suite must agree on, from `loupe eval --json`: the summary and, per cell,
// the counts, rates, pass^k/pass@k, pathologies, terminations and iterations (latencies, tokens and
// durations differ from run to run and are left out).
interface JsonReport {
  summary: unknown;
  statistics: { cells: Array<{ key: string; summary: Record<string, unknown> }> };
}

export function comparableReport(json: JsonReport): { summary: unknown; cells: Record<string, unknown> } {
  const pick = (s: Record<string, unknown>) => ({
    trials: s.trials,
    passed: s.passed,
    failed: s.failed,
    errored: s.errored,
    passRate: s.passRate,
    passHatK: s.passHatK,
    passAtK: s.passAtK,
    pathologies: s.pathologies,
    terminations: s.terminations,
    meanIterations: s.meanIterations,
  });
  return { summary: json.summary, cells: Object.fromEntries(json.statistics.cells.map((c) => [c.key, pick(c.summary)])) };
}
