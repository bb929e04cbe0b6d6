// Estimating a persona from what a model did: each model turn, classified (classify-reply.ts) in the
// situation it saw, is one draw of the persona's policy. Per situation, a deviation's probability is
// its count over the turns where it could be told apart (a repeat needs an earlier call, an early
// answer needs work left), with a 95% Wilson interval; lose_plan is estimated over the turns whose
// evidence was lost. Pure: the reader (fit-turns.ts) builds the turns from a recorded run.
import { wilson } from '../eval/statistics/proportion';
import type { Proportion } from '../eval/statistics/statistics-types';
import { SIM_DEVIATIONS } from './persona-schema';
import { SIM_SITUATIONS } from './sim-types';
import type { Persona, SimBehaviour, SimDeviation, SimSituation, SimWeights } from './sim-types';

export { SIM_DEVIATIONS };

/** One model turn as the fit sees it. */
export interface FitTurn {
  situation: SimSituation;
  evidenceLost: boolean;
  behaviour: SimBehaviour;
  /**
   * behaviours that could not show on this turn: the policy turns them into next_step there (see
   * sim-policy.ts `applicable`), so the turn says nothing about their probability
   */
  unobservable?: ReadonlyArray<SimDeviation | 'lose_plan'>;
}

export interface SituationFit {
  situation: SimSituation;
  /** turns in this situation that drew from its weights (lose_plan turns, decided before them, left out) */
  turns: number;
  /** per deviation: count / turns where it was observable, with its Wilson interval */
  rates: Record<SimDeviation, Proportion>;
  /** turns that took the next step of the plan */
  nextStep: Proportion;
}

export interface PersonaFit {
  turns: number;
  situations: SituationFit[];
  /** lose_plan turns / turns whose evidence was lost where losing the plan could show */
  losePlan: Proportion;
}

/** What the fit cannot estimate from turns: the persona's identity and speeds. */
export type PersonaShape = Omit<Persona, 'behaviour' | 'losePlan'>;

/** Probabilities are written with 3 decimals; the interval says how much more they can be trusted. */
const round = (p: number) => Math.round(p * 1000) / 1000;

/** Per-situation counts and rates of the turns. */
export function fitTurns(turns: readonly FitTurn[], confidence = 0.95): PersonaFit {
  const cannotLose = (t: FitTurn) => t.unobservable?.includes('lose_plan') ?? false;
  const lost = turns.filter((t) => t.evidenceLost && !cannotLose(t));
  const losePlan = wilson(lost.filter((t) => t.behaviour === 'lose_plan').length, lost.length, confidence);
  // the situation's weights are drawn only once the plan was kept: a lose_plan turn is not a draw of
  // them, and where a lost plan could not show it became next_step, mixed into that turn's draw
  const drawn = turns.filter((t) => t.behaviour !== 'lose_plan' && !(t.evidenceLost && cannotLose(t)));
  const situations: SituationFit[] = [];
  for (const situation of SIM_SITUATIONS) {
    const inSituation = drawn.filter((t) => t.situation === situation);
    if (!inSituation.length && situation !== 'base') continue;
    const rates = {} as Record<SimDeviation, Proportion>;
    for (const b of SIM_DEVIATIONS) {
      const observable = inSituation.filter((t) => !t.unobservable?.includes(b));
      rates[b] = wilson(observable.filter((t) => t.behaviour === b).length, observable.length, confidence);
    }
    const nextStep = wilson(inSituation.filter((t) => t.behaviour === 'next_step').length, inSituation.length, confidence);
    situations.push({ situation, turns: inSituation.length, rates, nextStep });
  }
  return { turns: turns.length, situations, losePlan };
}

/** A situation's weights as a persona writes them: rounded, zeros left out, the sum kept ≤ 1. */
export function weightsOf(fit: SituationFit): SimWeights {
  const weights: SimWeights = {};
  for (const b of SIM_DEVIATIONS) {
    const rate = fit.rates[b].rate;
    if (rate !== null && round(rate) > 0) weights[b] = round(rate);
  }
  // per-behaviour denominators and rounding can add up past 1: take the excess off the largest
  const sum = Object.values(weights).reduce((a, p) => a + p, 0);
  if (sum > 1) {
    const largest = (Object.keys(weights) as SimDeviation[]).reduce((a, b) => (weights[a]! >= weights[b]! ? a : b));
    weights[largest] = round(weights[largest]! - (sum - 1) - 0.0005);
  }
  return weights;
}

/** The fitted persona: base weights always; another situation only when it had at least `minTurns` turns (else it falls back to base, as the policy does). */
export function personaFromFit(fit: PersonaFit, shape: PersonaShape, minTurns = 5): Persona {
  const behaviour: Persona['behaviour'] = { base: {} };
  for (const s of fit.situations) {
    if (s.situation === 'base') behaviour.base = weightsOf(s);
    else if (s.turns >= minTurns) behaviour[s.situation] = weightsOf(s);
  }
  return { ...shape, behaviour, losePlan: fit.losePlan.rate === null ? 0 : round(fit.losePlan.rate) };
}
