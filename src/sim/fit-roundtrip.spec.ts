// The fit against the policy itself: turns drawn by decide() in varied progress states, read back
// with classifyReply() and the applicability the fit derives from sim-policy.ts, recover the
// persona's probabilities within max(0.02, 3·SE) — the mapping of inapplicable draws to next_step
// and of lost plans included, which a plain count/turns would get wrong.
import { seededRandom } from '../common/seeded-random';
import { classifyReply } from './classify-reply';
import { unobservableBehaviours } from './fit-observable';
import { fitTurns, personaFromFit, SIM_DEVIATIONS, type FitTurn } from './persona-fit';
import { decide } from './sim-policy';
import { SIM_SITUATIONS, type Persona, type SimPlan, type SimProgress } from './sim-types';

const plan: SimPlan = {
  steps: [
    { name: 'run_command', arguments: { command: 'sh test.sh' } },
    { name: 'read_file', arguments: { path: 'sum.sh' } },
    { name: 'write_file', arguments: { path: 'sum.sh', content: 'awk …' } },
    { name: 'run_command', arguments: { command: 'sh test.sh' } },
  ],
  finalAnswer: 'The sum subtracted instead of adding; fixed and the test passes.',
};
const tools = ['list_files', 'read_file', 'write_file', 'run_command'];

const persona = (toolCalls: Persona['toolCalls'], family: Persona['family']): Persona => ({
  name: 'truth',
  description: 'known probabilities',
  family,
  toolCalls,
  tokensPerSecond: 40,
  prefillTokensPerSecond: 800,
  contextLength: 8192,
  behaviour: {
    base: {
      repeat_last: 0.12,
      vary_args: 0.05,
      unknown_tool: 0.04,
      fake_output: 0.08,
      promise: 0.06,
      early_answer: 0.05,
      malformed_call: 0.07,
    },
    after_nudge: { promise: 0.3, early_answer: 0.1 },
    after_error: { repeat_last: 0.4 },
  },
  losePlan: 0.5,
});

function progressOf(rng: () => number): SimProgress {
  const completed = Math.floor(rng() * (plan.steps.length + 1));
  const u = rng();
  // the last call: usually the step just done, sometimes a failed try at the next one, none at the start
  const lastCall = completed === 0 ? (u < 0.5 ? undefined : plan.steps[0]) : u < 0.8 ? plan.steps[completed - 1] : plan.steps[completed];
  return {
    completed,
    ...(lastCall ? { lastCall } : {}),
    evidenceLost: completed > 0 && rng() < 0.3,
    situation: SIM_SITUATIONS[Math.floor(rng() * SIM_SITUATIONS.length)],
  };
}

const tolerance = (p: number, n: number) => Math.max(0.02, 3 * Math.sqrt((p * (1 - p)) / n));

describe.each([
  ['native', 'qwen3'],
  ['text', 'qwen3'],
  ['text', 'mistral'],
] as const)('fit of decide() turns (%s calls, %s)', (toolCalls, family) => {
  const truth = persona(toolCalls, family);

  it('classifies every drawn turn as drawn and recovers each probability within max(0.02, 3·SE)', () => {
    const rng = seededRandom(17);
    const turns: FitTurn[] = [];
    const misclassified: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      const progress = progressOf(rng);
      const d = decide(truth, plan, progress, rng, tools);
      const behaviour = classifyReply(plan, progress, d.reply, tools);
      if (behaviour !== d.behaviour && misclassified.length < 5)
        misclassified.push(`${d.behaviour} read as ${behaviour}: ${JSON.stringify(d.reply)}`);
      const unobservable = unobservableBehaviours(plan, progress, tools);
      turns.push({
        situation: progress.situation,
        evidenceLost: progress.evidenceLost,
        behaviour,
        ...(unobservable.length ? { unobservable } : {}),
      });
    }
    expect(misclassified).toEqual([]);
    const fit = fitTurns(turns);
    const fitted = personaFromFit(fit, truth);
    const misses: string[] = [];
    for (const s of fit.situations) {
      const weights = truth.behaviour[s.situation] ?? truth.behaviour.base;
      for (const b of SIM_DEVIATIONS) {
        const p = weights[b] ?? 0;
        const r = s.rates[b];
        if (Math.abs(r.rate! - p) > tolerance(p, r.n)) misses.push(`${s.situation}.${b}: ${r.rate!.toFixed(3)} (n=${r.n}) vs ${p}`);
      }
    }
    expect(misses).toEqual([]);
    expect(Math.abs(fitted.losePlan - truth.losePlan)).toBeLessThanOrEqual(tolerance(truth.losePlan, fit.losePlan.n));
  });
});
