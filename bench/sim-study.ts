// The simulated-models study (issue 39, item 5), read from a `loupe eval --json` report:
//
//   LOUPE_SIM_TIME_SCALE=0 npx loupe eval scenarios/tasks -m sim:A,sim:B,sim:C \
//     --set profile=corvid,opencode,dexto,mcp-agent,gemini-cli,loupe -t 30 --seed 1 --json > study.json
//   node dist/bench/sim-study.js study.json
//
// prints the personas × profiles pass-rate matrix (pooled over the tasks, 95% Wilson intervals), the
// profile pairs that differ per persona (Fisher exact, Holm within the persona) and the pathology
// shares behind them, as Markdown (src/sim/fit-study.ts).
import * as fs from 'node:fs';
import type { RunSummaries } from '../src/eval/statistics/summarize';
import { salientPathologies, studyMarkdown, studyMatrix } from '../src/sim/fit-study';

export function studyFromReport(file: string): string {
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { runId?: string; statistics?: RunSummaries };
  if (!report.statistics?.cells) throw new Error(`${file}: not a \`loupe eval --json\` report (no statistics.cells)`);
  const rows = studyMatrix(report.statistics.cells);
  return `${report.runId ? `run ${report.runId}\n\n` : ''}${studyMarkdown(rows, salientPathologies(rows))}`;
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node dist/bench/sim-study.js REPORT.json\n');
    process.exit(2);
  }
  process.stdout.write(studyFromReport(file));
}
