// A scenario's `solution:` — the task's intended solution: its tool calls in order, then the final
// answer. A simulated model (`sim:<persona>`) follows it stochastically; a scripted run of a scenario
// without `script:` replays it (one turn per call, then the answer). Without `solution:`, the plan is
// read from the script (solution-plan.ts).
import { z } from 'zod';
import type { SimPlan } from '../../sim/sim-types';
import type { StandinScript, StandinTurn } from '../../standin/standin-script';

const solutionCall = z
  .strictObject({
    name: z.string().min(1).describe('the tool'),
    arguments: z.record(z.string(), z.unknown()).default({}).describe('its arguments'),
  })
  .describe('one tool call of the solution');

export const solutionSchema = z
  .strictObject({
    calls: z.array(solutionCall).max(10_000).default([]).describe('the tool calls that solve the task, in order'),
    final_answer: z.string().min(1).describe('the answer once every call is done'),
  })
  .describe(
    "the task's intended solution: simulated models (`-m sim:<persona>`) follow it; without `script:` a scripted run replays it (one turn per call, then the answer)",
  );

export type SolutionDocument = z.infer<typeof solutionSchema>;

export function toSolution(d: SolutionDocument): SimPlan {
  return { steps: d.calls.map((c) => ({ name: c.name, arguments: c.arguments })), finalAnswer: d.final_answer };
}

/** The script a scripted run replays for a solution: one turn per call, then the answer. */
export function solutionScript(plan: SimPlan): StandinScript {
  const turns: StandinTurn[] = [
    ...plan.steps.map((c) => ({ toolCalls: [{ name: c.name, arguments: c.arguments }] })),
    { content: plan.finalAnswer },
  ];
  return { turns: { '*': turns } };
}
