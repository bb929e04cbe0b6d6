// The simulated model's choice on one turn. Pure: the rng is the only source of chance.
//
// On a turn where evidence of done steps is gone from its context, it first loses the plan with
// probability `lose_plan` (and starts over from the first step). Otherwise it draws one behaviour
// from the situation's weights (the situation's own, else base); next_step takes what the
// deviations leave. A drawn behaviour that cannot happen on this turn is next_step instead (see
// `applicable`): so a fit estimates each probability over the turns where it was applicable.
import { SIM_DEVIATIONS } from './persona-schema';
import {
  renderCalls,
  renderEarlyAnswer,
  renderFakeOutput,
  renderMalformed,
  renderPromise,
  unknownToolName,
  variedCall,
} from './sim-render';
import { sameCall } from './sim-texts';
import type { Persona, SimBehaviour, SimDecision, SimPlan, SimProgress, SimWeights } from './sim-types';

/** The weights that apply in the progress's situation (its own, else base). */
export function weightsFor(persona: Persona, situation: SimProgress['situation']): SimWeights {
  return (situation === 'base' ? undefined : persona.behaviour[situation]) ?? persona.behaviour.base;
}

/**
 * Whether a behaviour can happen on this turn, rendered unlike any other (what keeps classifyReply
 * an exact inverse): repeat_last and vary_args need a last call to a tool that exists (another call
 * to an invented tool reads as unknown_tool; `tools` are the declared ones besides the plan's), and
 * repeating it must not be the
 * next step itself (retrying a step that failed is next_step); early_answer and malformed_call need
 * a step left; lose_plan needs lost evidence, a step done, and its first step to differ from the
 * next step and the last call.
 */
export function applicable(behaviour: SimBehaviour, plan: SimPlan, progress: SimProgress, tools: readonly string[] = []): boolean {
  const next = plan.steps[progress.completed];
  const last = progress.lastCall;
  const lastKnown = !!last && (tools.includes(last.name) || plan.steps.some((s) => s.name === last.name));
  switch (behaviour) {
    case 'next_step':
    case 'unknown_tool':
    case 'fake_output':
    case 'promise':
      return true;
    case 'repeat_last':
      return lastKnown && !sameCall(last, next);
    case 'vary_args':
      return lastKnown;
    case 'early_answer':
    case 'malformed_call':
      return !!next;
    case 'lose_plan':
      return (
        progress.evidenceLost &&
        progress.completed > 0 &&
        plan.steps.length > 0 &&
        !sameCall(plan.steps[0], next) &&
        !sameCall(plan.steps[0], progress.lastCall)
      );
  }
}

/** The behaviour drawn for this turn (two draws: lose_plan, then the situation's weights). */
export function drawBehaviour(
  persona: Persona,
  plan: SimPlan,
  progress: SimProgress,
  rng: () => number,
  tools: readonly string[],
): SimBehaviour {
  const lose = rng();
  const u = rng();
  if (progress.evidenceLost && lose < persona.losePlan) return applicable('lose_plan', plan, progress, tools) ? 'lose_plan' : 'next_step';
  const weights = weightsFor(persona, progress.situation);
  let acc = 0;
  for (const d of SIM_DEVIATIONS) {
    acc += weights[d] ?? 0;
    if (u < acc) return applicable(d, plan, progress, tools) ? d : 'next_step';
  }
  return 'next_step';
}

export function decide(persona: Persona, plan: SimPlan, progress: SimProgress, rng: () => number, tools: string[]): SimDecision {
  const known = [...new Set([...tools, ...plan.steps.map((s) => s.name)])];
  const behaviour = drawBehaviour(persona, plan, progress, rng, known);
  const next = plan.steps[progress.completed];
  const last = progress.lastCall;
  const reply = (() => {
    switch (behaviour) {
      case 'next_step':
        return next ? renderCalls(persona, [next]) : { content: plan.finalAnswer, toolCalls: [] };
      case 'repeat_last':
        return renderCalls(persona, [last!]);
      case 'vary_args':
        return renderCalls(persona, [variedCall(last!, plan, rng)]);
      case 'unknown_tool':
        return renderCalls(persona, [{ name: unknownToolName(known, rng), arguments: (next ?? last)?.arguments ?? {} }]);
      case 'fake_output':
        return renderFakeOutput(next ?? last, rng);
      case 'promise':
        return renderPromise(next ?? last, rng);
      case 'early_answer':
        return renderEarlyAnswer(rng);
      case 'malformed_call':
        return renderMalformed(persona, next!, rng);
      case 'lose_plan':
        return renderCalls(persona, [plan.steps[0]]);
    }
  })();
  return { behaviour, reply };
}
