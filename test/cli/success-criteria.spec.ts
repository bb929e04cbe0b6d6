// The shipped scenarios' success criteria (what a live model must achieve) are satisfiable: each
// scenario's own script, served as a live model over OLLAMA_HOST, is one good path, so a live
// eval of the scenario against it must pass on the success criteria and the invariants. The stand-in
// serves it as an Ollama server model (templated prompt counts, silent truncation, num_predict, reloads
// on changed options, keep_alive, tools parsed only when sent): only the counts a scenario pins for
// context pressure are pinned, and the live path (preflight, warm-up, grouping, reload accounting) runs. A criterion
// that no good run could meet (a wrong file name, a regex that never matches) fails here.
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { standinServing } from '../../src/cli/commands/standin.command';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { runStandinCli } from '../../src/standin/standin-cli';
import { createTestDatabase } from '../support/test-app';
import { CLI_CASES_AT_ONCE, limitConcurrency, once } from '../support/concurrency';
import { ROOT, runCli } from '../support/run-cli';

type Doc = {
  success?: unknown;
  profile?: string | string[];
  expect?: Array<{ termination?: unknown }>;
  ollama?: { local_standin?: unknown };
};

/**
 * A script that is one good path for a live model: its own run ends `completed` (a script that chants,
 * loops or meets a fatal provider fault shows how the loop copes with a bad model, not a good path:
 * against a real model a provider failure is an infrastructure error, never a verdict), and it needs
 * no second, local Ollama (which a live run does not have).
 */
function isGoodPath(doc: Doc): boolean {
  const ends = (doc.expect ?? []).flatMap((e) => (e.termination === undefined ? [] : [e.termination]));
  return doc.ollama?.local_standin === undefined && ends.every((t) => t === 'completed');
}

/** Each shipped scenario with success criteria whose script is a good path, under each profile it is written for. */
function scenariosWithSuccess(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      if (!e.name.endsWith('.yaml')) continue;
      const doc = parse(fs.readFileSync(p, 'utf8')) as Doc;
      if (!doc.success || !isGoodPath(doc)) continue;
      for (const profile of doc.profile === undefined ? ['loupe'] : [doc.profile].flat()) out.push([path.relative(ROOT, p), profile]);
    }
  };
  walk(path.join(ROOT, 'scenarios'));
  return out.sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`));
}

describe('success criteria of the shipped scenarios (built CLI, live mode)', () => {
  const files = scenariosWithSuccess();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-success-'));
  // one database for every case (each run is its own eval run in it), made by the first case to start
  const databaseUrl = once(createTestDatabase);
  // each case is a CLI process, about 1.2 s of CPU mostly spent starting it: a few at once
  const limit = limitConcurrency(CLI_CASES_AT_ONCE);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('covers the task-like scenarios', () => {
    expect(new Set(files.map(([f]) => f)).size).toBeGreaterThanOrEqual(10);
  });

  it.concurrent.each(files.map(([rel, profile], i) => [rel, profile, i] as const))(
    '%s passes live against its own script under %s',
    (rel, profile, i) =>
      limit(async () => {
        const file = path.join(ROOT, rel);
        // its own LOUPE_HOME: cases run side by side, and none should see another's workspaces or records
        const env = { DATABASE_URL: await databaseUrl(), LOUPE_HOME: path.join(tmp, `home-${i}`) };
        // the stand-in `loupe standin --scenario <file>` would run, served from this process: a process of
        // its own for each case cost about 0.37 s of CPU to start, a quarter of this file's CPU
        const standin = await runStandinCli({
          ...standinServing(loadScenarios([file])[0], {}),
          port: 0,
          log: () => undefined,
          signals: new EventEmitter(),
        });
        try {
          const url = standin.url;
          const run = await runCli(
            ['eval', file, '--json', '--set', `profile=${profile}`],
            { ...env, OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url, LOUPE_RETRY_DELAY_SCALE: '0.01' },
            { timeoutMs: 90_000 },
          );
          const report = JSON.parse(run.stdout || '{}');
          const trial = report.trials?.[0];
          expect({
            mode: report.mode,
            // warmed with the trial's own options, the model is never reloaded inside a measured turn
            reloads: report.reloadsInMeasuredTurns,
            status: trial?.status,
            failed: trial?.failedExpectations,
            violations: trial?.invariantViolations,
            error: trial?.error ?? null,
            stderr: run.code === 0 ? '' : run.stderr.slice(-1_500),
          }).toEqual({ mode: 'live', reloads: 0, status: 'passed', failed: [], violations: [], error: null, stderr: '' });
          expect(run.code).toBe(0);
        } finally {
          await standin.stop();
        }
      }),
    120_000,
  );
});
