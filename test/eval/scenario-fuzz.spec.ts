// Fuzzes the scenario parser with seeded mutations of the bundled scenarios and hostile documents:
// every case must be answered — a scenario, or problems each naming the file, line and field with
// a specific message — and none may hang. Cases run on a worker thread that answers after each one,
// so a case that takes too long stops the worker and fails the test, naming the case, instead of
// blocking the run. LOUPE_FUZZ_SEED and LOUPE_FUZZ_CASES run other or more cases.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fuzzCases, type FuzzCase } from '../support/scenario-fuzz-cases';

const ROOT = path.resolve(__dirname, '../..');
const SEED = Number(process.env.LOUPE_FUZZ_SEED ?? 20261127);
const COUNT = Number(process.env.LOUPE_FUZZ_CASES ?? 1000);
/** far beyond what any case takes on a loaded machine; a hang (seconds to minutes) is far beyond it too */
const CASE_DEADLINE_MS = 5_000;

function bundledScenarios(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'fixtures') walk(full);
      else if (/\.ya?ml$/.test(entry.name)) out.push({ name: path.relative(ROOT, full), text: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(path.join(ROOT, 'scenarios'));
  return out;
}

interface Outcome {
  failures: Array<{ label: string; failure: string; text: string }>;
  hung?: FuzzCase;
  answered: number;
}

/** Runs the cases on a worker, each with its deadline. */
function runCases(cases: FuzzCase[]): Promise<Outcome> {
  const worker = new Worker(path.join(ROOT, 'test/support/ts-worker.js'), {
    workerData: { entry: path.join(ROOT, 'test/support/scenario-fuzz-worker.ts') },
  });
  const outcome: Outcome = { failures: [], answered: 0 };
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (hung?: FuzzCase) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ...outcome, hung });
    };
    // the first deadline also covers loading the parser on the worker
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(cases[outcome.answered]), ms);
    };
    worker.on('error', (e) => (clearTimeout(timer), reject(e)));
    worker.on('message', (m: { i?: number; failure?: string; done?: boolean }) => {
      if (m.done) return finish();
      outcome.answered++;
      if (m.failure) outcome.failures.push({ label: cases[m.i!].label, failure: m.failure, text: cases[m.i!].text.slice(0, 300) });
      arm(CASE_DEADLINE_MS);
    });
    arm(CASE_DEADLINE_MS * 6);
    worker.postMessage(cases.map((c) => c.text));
  });
}

describe('scenario parser fuzz', () => {
  it(`answers ${COUNT} mutated and hostile scenarios (seed ${SEED}) in time, each problem with file, line and field`, async () => {
    const sources = bundledScenarios();
    expect(sources.length).toBeGreaterThan(20);
    const cases = fuzzCases(sources, SEED, COUNT);
    const outcome = await runCases(cases);
    if (outcome.hung)
      throw new Error(`case ${outcome.answered} hung (seed ${SEED}): ${outcome.hung.label}\n${outcome.hung.text.slice(0, 500)}`);
    expect(outcome.answered).toBe(cases.length);
    expect(outcome.failures.slice(0, 10)).toEqual([]);
  });
});
