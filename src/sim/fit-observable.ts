// Which behaviours a turn could not show: the policy turns a drawn behaviour that cannot happen on
// the turn into next_step (sim-policy.ts `applicable`: a repeat with no earlier call, an early
// answer once every step is done…), so such a turn says nothing about its probability and the fit
// leaves it out of that behaviour's denominator. Pure.
import { SIM_DEVIATIONS } from './persona-schema';
import { applicable } from './sim-policy';
import type { SimDeviation, SimPlan, SimProgress } from './sim-types';

/** `tools`: the tools the model was offered (as the policy is given them). */
export function unobservableBehaviours(plan: SimPlan, progress: SimProgress, tools: readonly string[]): Array<SimDeviation | 'lose_plan'> {
  const out: Array<SimDeviation | 'lose_plan'> = SIM_DEVIATIONS.filter((d) => !applicable(d, plan, progress, tools));
  if (!applicable('lose_plan', plan, progress, tools)) out.push('lose_plan');
  return out;
}
