import { seededRandom } from '../common/seeded-random';
import { fitTurns, personaFromFit, SIM_DEVIATIONS, weightsOf } from './persona-fit';
import type { FitTurn } from './persona-fit';
import type { Persona, SimBehaviour, SimSituation, SimWeights } from './sim-types';

const shape = {
  name: 'fitted',
  description: 'fitted from turns',
  family: 'qwen3' as const,
  toolCalls: 'native' as const,
  tokensPerSecond: 40,
  prefillTokensPerSecond: 800,
  contextLength: 8192,
};

/** Draws one turn from known probabilities: lose_plan first when evidence was lost, then the situation's weights. */
function draw(weights: SimWeights, losePlan: number, evidenceLost: boolean, rng: () => number): SimBehaviour {
  if (evidenceLost && rng() < losePlan) return 'lose_plan';
  let u = rng();
  for (const b of SIM_DEVIATIONS) {
    u -= weights[b] ?? 0;
    if (u < 0) return b;
  }
  return 'next_step';
}

function synthetic(truth: Persona, perSituation: Partial<Record<SimSituation, number>>, seed: number, lostShare = 0.2): FitTurn[] {
  const rng = seededRandom(seed);
  const turns: FitTurn[] = [];
  for (const [situation, n] of Object.entries(perSituation) as Array<[SimSituation, number]>) {
    const weights = truth.behaviour[situation] ?? truth.behaviour.base;
    for (let i = 0; i < n; i++) {
      const evidenceLost = rng() < lostShare;
      turns.push({ situation, evidenceLost, behaviour: draw(weights, truth.losePlan, evidenceLost, rng) });
    }
  }
  return turns;
}

/** The stated tolerance: each probability within max(0.02, 3 standard errors of its estimate). */
function tolerance(p: number, n: number): number {
  return Math.max(0.02, 3 * Math.sqrt((p * (1 - p)) / n));
}

const truth: Persona = {
  ...shape,
  behaviour: {
    base: { repeat_last: 0.15, fake_output: 0.1, promise: 0.05, malformed_call: 0.08 },
    after_nudge: { promise: 0.3, early_answer: 0.2 },
    after_break: { repeat_last: 0.5 },
  },
  losePlan: 0.4,
};

describe('fitTurns / personaFromFit', () => {
  it('recovers every probability of a persona from 4,000 synthetic turns within max(0.02, 3·SE)', () => {
    const counts = { base: 2500, after_nudge: 800, after_break: 700 };
    const fit = fitTurns(synthetic(truth, counts, 7));
    const fitted = personaFromFit(fit, shape);
    const misses: string[] = [];
    for (const situation of ['base', 'after_nudge', 'after_break'] as const) {
      const s = fit.situations.find((x) => x.situation === situation)!;
      for (const b of SIM_DEVIATIONS) {
        const p = truth.behaviour[situation]![b] ?? 0;
        const estimate = fitted.behaviour[situation]![b] ?? 0;
        if (Math.abs(estimate - p) > tolerance(p, s.turns)) misses.push(`${situation}.${b}: ${estimate} vs ${p}`);
      }
    }
    expect(misses).toEqual([]);
    const lost = fit.losePlan.n;
    expect(Math.abs(fitted.losePlan - truth.losePlan)).toBeLessThanOrEqual(tolerance(truth.losePlan, lost));
  });

  it("reports each situation's turn count and 95% Wilson intervals that cover the truth", () => {
    const fit = fitTurns(synthetic(truth, { base: 600, after_nudge: 200 }, 11));
    const base = fit.situations.find((s) => s.situation === 'base')!;
    expect(base.turns).toBeGreaterThan(500); // lose_plan turns are counted apart
    expect(base.rates.repeat_last.n).toBe(base.turns);
    let covered = 0;
    let total = 0;
    for (const s of fit.situations) {
      for (const b of SIM_DEVIATIONS) {
        const p = (truth.behaviour[s.situation] ?? truth.behaviour.base)[b] ?? 0;
        const r = s.rates[b];
        total++;
        if (r.lo! <= p && p <= r.hi!) covered++;
      }
    }
    expect(covered / total).toBeGreaterThanOrEqual(0.85);
  });

  it('leaves out situations never seen (they fall back to base) and those with fewer than minTurns', () => {
    const fit = fitTurns(synthetic(truth, { base: 100, after_break: 3 }, 3));
    expect(fit.situations.map((s) => s.situation)).toEqual(['base', 'after_break']);
    const fitted = personaFromFit(fit, shape, 5);
    expect(Object.keys(fitted.behaviour)).toEqual(['base']);
    expect(Object.keys(personaFromFit(fit, shape, 3).behaviour)).toEqual(['base', 'after_break']);
  });

  it('counts a deviation only over the turns where it could show', () => {
    // half the turns had no earlier call: a repeat there came out as the next step
    const rng = seededRandom(5);
    const turns: FitTurn[] = [];
    for (let i = 0; i < 4000; i++) {
      const first = i % 2 === 0;
      const b = draw({ repeat_last: 0.3 }, 0, false, rng);
      turns.push(
        first
          ? { situation: 'base', evidenceLost: false, behaviour: 'next_step', unobservable: ['repeat_last'] }
          : { situation: 'base', evidenceLost: false, behaviour: b },
      );
    }
    const s = fitTurns(turns).situations[0];
    expect(s.rates.repeat_last.n).toBe(2000);
    expect(Math.abs(s.rates.repeat_last.rate! - 0.3)).toBeLessThanOrEqual(tolerance(0.3, 2000));
  });

  it('leaves out of the weights a lost-evidence turn where losing the plan could not show (it became next_step there)', () => {
    const turns: FitTurn[] = [
      { situation: 'base', evidenceLost: true, behaviour: 'next_step', unobservable: ['lose_plan'] },
      { situation: 'base', evidenceLost: true, behaviour: 'lose_plan' },
      { situation: 'base', evidenceLost: true, behaviour: 'promise' },
      { situation: 'base', evidenceLost: false, behaviour: 'next_step', unobservable: ['lose_plan'] },
    ];
    const fit = fitTurns(turns);
    expect(fit.losePlan).toMatchObject({ successes: 1, n: 2 });
    expect(fit.situations[0]).toMatchObject({ turns: 2, rates: { promise: { successes: 1, n: 2 } } });
  });

  it('keeps the fitted weights of a situation summing to at most 1', () => {
    const turns: FitTurn[] = [
      { situation: 'base', evidenceLost: false, behaviour: 'repeat_last', unobservable: ['promise'] },
      { situation: 'base', evidenceLost: false, behaviour: 'promise', unobservable: ['repeat_last'] },
    ];
    const w = weightsOf(fitTurns(turns).situations[0]);
    const sum = Object.values(w).reduce((a, p) => a + p, 0);
    expect(sum).toBeLessThanOrEqual(1);
    expect(w.repeat_last! + w.promise!).toBeGreaterThan(0.99);
  });

  it('gives an empty base and losePlan 0 when there are no turns', () => {
    const fitted = personaFromFit(fitTurns([]), shape);
    expect(fitted.behaviour).toEqual({ base: {} });
    expect(fitted.losePlan).toBe(0);
  });

  it('estimates different weights from different personas (the fit is not a constant)', () => {
    const other: Persona = { ...truth, behaviour: { base: { promise: 0.4 } }, losePlan: 0 };
    const a = personaFromFit(fitTurns(synthetic(truth, { base: 1000 }, 1)), shape);
    const b = personaFromFit(fitTurns(synthetic(other, { base: 1000 }, 1)), shape);
    expect((b.behaviour.base.promise ?? 0) - (a.behaviour.base.promise ?? 0)).toBeGreaterThan(0.25);
    expect(b.behaviour.base.repeat_last ?? 0).toBe(0);
  });
});
