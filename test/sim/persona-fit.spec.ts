// `loupe personas fit` through the built CLI (issue 39): a persona's parameters are recovered from a
// recorded simulated run — `loupe eval -m sim:X --record`, then the fit — each probability within
// max(0.05, 3 standard errors of its estimate) for every rate resting on at least 30 turns; the
// fitted file loads as a persona; a run that was not recorded, or no run, is bad input (exit 2).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadPersonaFile } from '../../src/sim/persona-file';
import { findPersona } from '../../src/sim/personas';
import type { PersonaFit } from '../../src/sim/persona-fit';
import { SIM_DEVIATIONS } from '../../src/sim/persona-schema';
import type { Persona } from '../../src/sim/sim-types';
import { CLI_CASES_AT_ONCE, limitConcurrency, once } from '../support/concurrency';
import { ROOT, runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const TASKS = ['fix-failing-test.yaml'].map((f) => path.join(ROOT, 'scenarios', 'tasks', f));
const PERSONAS = ['repetitive', 'sloppy-qwen3', 'fabricator'];
const TRIALS = '40';

/** The stated tolerance: max(0.05, 3·SE) with SE from the true probability and the turns the estimate rests on. */
const tolerance = (p: number, n: number) => Math.max(0.05, 3 * Math.sqrt((p * (1 - p)) / n));

interface FitJson {
  model: string;
  trials: number;
  persona: Persona;
  fit: PersonaFit;
}

describe('loupe personas fit (built CLI)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fit-'));
  const databaseUrl = once(createTestDatabase);
  // the cases are independent runs, each a CLI busy on one core: side by side, on their own LOUPE_HOME
  const limit = limitConcurrency(CLI_CASES_AT_ONCE);
  const envFor = async (name: string): Promise<Record<string, string | undefined>> => ({
    DATABASE_URL: await databaseUrl(),
    LOUPE_HOME: path.join(tmp, `home-${name}`),
    OLLAMA_HOST: undefined,
    LOUPE_SIM_TIME_SCALE: '0',
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function recordedRun(env: Record<string, string | undefined>, persona: string, trials: string, record = true): Promise<string> {
    const r = await runCli(
      ['eval', ...TASKS, '-m', `sim:${persona}`, '-t', trials, '-c', '4', '--seed', '5', '--json', ...(record ? ['--record'] : [])],
      env,
      { timeoutMs: 240_000 },
    );
    // a misbehaving persona fails trials: exit 1 is a run that ran
    if (r.code !== 0 && r.code !== 1) throw new Error(`loupe eval exited ${r.code}: ${r.stderr.slice(-2_000)}`);
    return (JSON.parse(r.stdout) as { runId: string }).runId;
  }

  it.concurrent.each(PERSONAS)(
    'recovers sim:%s from a recorded run of it within max(0.05, 3·SE)',
    (name) =>
      limit(async () => {
        const env = await envFor(name);
        const truth = findPersona(name);
        const runId = await recordedRun(env, name, TRIALS);
        const r = await runCli(['personas', 'fit', runId, '--json'], env, { timeoutMs: 120_000 });
        expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
        const { persona, fit } = JSON.parse(r.stdout) as FitJson;
        expect(persona).toMatchObject({ family: truth.family, toolCalls: truth.toolCalls, contextLength: truth.contextLength });
        const misses: string[] = [];
        let checked = 0;
        for (const s of fit.situations) {
          const weights = truth.behaviour[s.situation] ?? truth.behaviour.base;
          for (const b of SIM_DEVIATIONS) {
            const rate = s.rates[b];
            if (rate.n < 30) continue;
            checked++;
            const p = weights[b] ?? 0;
            if (Math.abs(rate.rate! - p) > tolerance(p, rate.n))
              misses.push(`${s.situation}.${b}: ${rate.rate!.toFixed(3)} (n=${rate.n}) vs ${p}`);
          }
        }
        expect(misses).toEqual([]);
        // base has every deviation checked; a persona's other situations as far as the run reached them
        expect(checked).toBeGreaterThanOrEqual(SIM_DEVIATIONS.length);

        // the YAML form: the table on stdout, the file loads as a persona named after it
        const out = path.join(tmp, `${name}-fitted.yaml`);
        const y = await runCli(['personas', 'fit', runId, '--out', out], env, { timeoutMs: 120_000 });
        expect(y.code).toBe(0);
        expect(y.stdout).toMatch(/SITUATION\s+TURNS\s+BEHAVIOUR\s+COUNT\s+RATE\s+95% CI/);
        expect(loadPersonaFile(out)).toMatchObject({ name: `${name}-fitted`, behaviour: persona.behaviour, losePlan: persona.losePlan });
      }),
    // a guard against a hang, not a speed target: the recorded run alone may take 240 s (its child's limit)
    360_000,
  );

  it.concurrent('refuses a run that was not recorded, and a run that does not exist (exit 2)', () =>
    limit(async () => {
      const env = await envFor('refusals');
      const runId = await recordedRun(env, 'diligent', '1', false);
      const r = await runCli(['personas', 'fit', runId], env, { timeoutMs: 120_000 });
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 2,
        stderr: expect.stringContaining(`run ${runId} was not recorded`) as string,
      });
      const none = await runCli(['personas', 'fit', '00000000-0000-4000-8000-000000000000'], env, { timeoutMs: 120_000 });
      expect({ code: none.code, stderr: none.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('no eval run') as string });
    }),
  );
});
