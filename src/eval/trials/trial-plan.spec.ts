import type { Configuration } from '../run-plan';
import { parseScenario } from '../scenario/scenario-parser';
import { planTrial, startedTrial } from './trial-plan';
import { trialRow } from './trial-rows';
import { trialSeed } from './trial-seed';

const scenario = (() => {
  const r = parseScenario(
    [
      'id: t/plan',
      'prompt: Say done.',
      'script: [{ content: Done. }]',
      'config:',
      '  max_tool_iterations: 7',
      '  command_timeout_ms: 1000',
      'success:',
      '  - final_answer: { contains: Done }',
      '',
    ].join('\n'),
    't.yaml',
  );
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.scenario;
})();
const ids = { trialId: 'trial-1', sessionId: 'session-1' };

describe('planTrial', () => {
  it("lets the configuration's overrides win over the scenario's config, and names the profile", () => {
    const config: Configuration = { key: 'max_tool_iterations=3', overrides: { max_tool_iterations: 3 } };
    const plan = planTrial({ scenario, model: 'm', config, trial: 2 }, { mode: 'scripted' }, ids);
    expect(plan.loopSettings).toMatchObject({ maxToolIterations: 3, profile: scenario.profiles[0] });
    expect(plan.axis.commandTimeoutMs).toBeUndefined(); // the scenario's own applies: the runner falls back to it
    expect(plan.foreign).toBe(false);
    expect(plan.label).toBe('t/plan [m #2 max_tool_iterations=3]');
  });

  it('derives the seed from the run seed, and sends none without one', () => {
    const config: Configuration = { key: '', overrides: {} };
    const job = { scenario, model: 'm', config, trial: 1 };
    const seeded = planTrial(job, { mode: 'scripted', runSeed: 42 }, ids);
    expect(seeded.seed).toBe(trialSeed(42, { scenarioId: 't/plan', model: 'm', configKey: '', trial: 1 }));
    expect(seeded.outcome.seed).toBe(seeded.seed);
    const unseeded = planTrial(job, { mode: 'scripted', runSeed: null }, ids);
    expect(unseeded.seed).toBeNull();
    expect('seed' in unseeded.outcome).toBe(false);
    expect(unseeded.label).toBe('t/plan [m #1]');
  });

  it('marks a profile the script was not written for as foreign', () => {
    const other = scenario.profiles[0] === 'opencode' ? 'dexto' : 'opencode';
    const config: Configuration = { key: `profile=${other}`, overrides: { profile: other } };
    const plan = planTrial({ scenario, model: 'm', config, trial: 1 }, { mode: 'scripted' }, ids);
    expect(plan.profile).toBe(other);
    expect(plan.foreign).toBe(true);
  });

  it('starts as an error with nothing counted, and its rows carry what the report says', () => {
    const config: Configuration = { key: '', overrides: {} };
    const plan = planTrial({ scenario, model: 'm', config, trial: 1 }, { mode: 'live' }, ids);
    expect(plan.base).toMatchObject({ trialId: 'trial-1', status: 'error', sessionId: null, judgedBy: 'success', events: 0 });
    expect(plan.outcome).toMatchObject({ status: 'error', pathologies: {}, tokens: { input: 0, output: 0 }, iterations: 0 });
    expect(startedTrial(plan, { mode: 'live' }, 2)).toMatchObject({ id: 'trial-1', scenarioId: 't/plan', attempt: 2, workerId: null });
    const row = trialRow({ ...plan.base, error: 'boom' }, plan.outcome, { sessionId: null, metadata: { seed: null } });
    expect(row).toMatchObject({ sessionId: null, status: 'error', error: 'boom', eventCount: 0, metadata: { seed: null } });
    expect(row.outcome).toEqual({
      pathologies: {},
      tokens: { input: 0, output: 0 },
      latency: plan.outcome.latency,
      terminationReason: null,
    });
  });
});
