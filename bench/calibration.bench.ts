// `npm run bench -- calibration`: how often run comparisons cry wolf, and how often they catch a
// real drop. Simulated runs, no I/O: M models × 24 cells × 10 trials a side, every cell's pass
// probability drawn once per simulation (uniform on [0.3, 0.95]) and shared by both runs, so any
// "regressed" is false. The family-wise rate is the share of simulations with any regressed row
// (what the `--baseline` gate and `eval compare`'s exit code act on); it should be ≤ α = 0.05.
// Beside it, the same simulations judged as before Holm (raw p < α on any row) show what the
// correction buys. Power: one cell's probability lowered by 30 points in B.
import type { BenchFigure, BenchSuite } from './run-benchmarks';
import { compareRuns, type RunComparison } from '../src/eval/statistics/compare';
import { seededRandom } from '../src/common/seeded-random';
import type { TrialOutcome } from '../src/eval/statistics/statistics-types';

const CELLS = 24;
const TRIALS = 10;
const ALPHA = 0.05;
const NULL_SIMULATIONS = 1000;
const POWER_SIMULATIONS = 1000;
const DROP = 0.3;

const EMPTY_LATENCY = { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 };

function trials(model: string, cell: number, p: number, random: () => number, n: number): TrialOutcome[] {
  return Array.from({ length: n }, (_, i) => ({
    scenarioId: `scenario-${String(cell).padStart(2, '0')}`,
    model,
    configKey: '',
    trial: i + 1,
    status: random() < p ? 'passed' : 'failed',
    terminationReason: 'completed',
    pathologies: {},
    tokens: { input: 0, output: 0 },
    latency: EMPTY_LATENCY,
    iterations: 1,
    scenarioHash: `hash-${cell}`,
    toolSchemaHash: 'tools',
  }));
}

/** two independent runs of the same cells; `drop` lowers the first cell of the first model in B */
function simulate(models: number, random: () => number, drop = 0, base?: number, n = TRIALS): [TrialOutcome[], TrialOutcome[]] {
  const a: TrialOutcome[] = [];
  const b: TrialOutcome[] = [];
  for (let m = 0; m < models; m++) {
    for (let c = 0; c < CELLS; c++) {
      const p = m === 0 && c === 0 && base !== undefined ? base : 0.3 + 0.65 * random();
      const model = `model-${m}`;
      a.push(...trials(model, c, p, random, n));
      b.push(...trials(model, c, m === 0 && c === 0 ? p - drop : p, random, n));
    }
  }
  return [a, b];
}

const rows = (r: RunComparison) => [r.run, ...r.configs, ...r.models, ...r.cells];
const rawRegressed = (r: RunComparison) => rows(r).some((x) => x.pValue !== null && x.pValue < ALPHA && (x.difference ?? 0) < 0);
const fdrRegressed = (r: RunComparison) => r.cells.some((x) => x.fdrVerdict === 'regressed');

function nullFigures(models: number): BenchFigure[] {
  const random = seededRandom(0xca1 + models);
  let gate = 0;
  let fdr = 0;
  let raw = 0;
  let family = 0;
  for (let s = 0; s < NULL_SIMULATIONS; s++) {
    const r = compareRuns(...simulate(models, random), { alpha: ALPHA });
    if (r.gate.fires) gate++;
    if (fdrRegressed(r)) fdr++;
    if (rawRegressed(r)) raw++;
    family = r.family;
  }
  const share = (n: number) => n / NULL_SIMULATIONS;
  const note = `${NULL_SIMULATIONS} null simulations of ${models} × ${CELLS} cells × ${TRIALS} trials, family of ${family} tests`;
  return [
    {
      name: `${models}×${CELLS} false "regressed", family-wise (Holm)`,
      value: share(gate),
      unit: 'of runs',
      note: `target ≤ ${ALPHA}; ${note}`,
    },
    { name: `${models}×${CELLS} false "regressed" in the cell list (BH)`, value: share(fdr), unit: 'of runs', note },
    { name: `${models}×${CELLS} false "regressed", uncorrected (before)`, value: share(raw), unit: 'of runs', note },
  ];
}

function powerFigures(models: number, base: number, n = TRIALS, simulations = POWER_SIMULATIONS): BenchFigure[] {
  const random = seededRandom(0x90e + models * 100 + Math.round(base * 100) + n * 10_000);
  let cellHolm = 0;
  let cellBh = 0;
  let gate = 0;
  for (let s = 0; s < simulations; s++) {
    const r = compareRuns(...simulate(models, random, DROP, base, n), { alpha: ALPHA });
    const cell = r.cells.find((c) => c.key === 'scenario-00|model-0|')!;
    if (cell.verdict === 'regressed') cellHolm++;
    if (cell.fdrVerdict === 'regressed') cellBh++;
    if (r.gate.fires) gate++;
  }
  const note = `one cell ${base} → ${(base - DROP).toFixed(2)}, ${n} trials a side, ${simulations} simulations`;
  const at = n === TRIALS ? '' : ` at ${n} trials`;
  return [
    { name: `${models}×${CELLS} power${at}: that cell regressed (Holm)`, value: cellHolm / simulations, unit: 'of runs', note },
    { name: `${models}×${CELLS} power${at}: that cell regressed (BH list)`, value: cellBh / simulations, unit: 'of runs', note },
    { name: `${models}×${CELLS} power${at}: gate fires`, value: gate / simulations, unit: 'of runs', note },
  ];
}

/** how many trials a cell needs before a 30-point drop is caught: 10 trials cannot, whatever the correction */
const TRIAL_SWEEP = [20, 40, 80];
const SWEEP_SIMULATIONS = 200;

export const calibrationSuite: BenchSuite = {
  name: 'calibration',
  description: `simulated null comparisons (no change) at 1, 3 and 5 models × ${CELLS} cells × ${TRIALS} trials: the share of runs with a false "regressed" (target ≤ ${ALPHA}), and the power to catch one cell dropping ${DROP * 100} points`,
  run: () =>
    Promise.resolve([
      ...[1, 3, 5].flatMap((models) => [...nullFigures(models), ...powerFigures(models, 1), ...powerFigures(models, 0.9)]),
      ...TRIAL_SWEEP.flatMap((n) => powerFigures(1, 0.9, n, SWEEP_SIMULATIONS)),
    ]),
};
