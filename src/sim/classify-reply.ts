// The inverse of the policy, for fitting personas to recorded runs (persona-fit.ts): from what the
// model could see (its progress) and what it wrote, which behaviour the turn was.
//
// Calls come from message.tool_calls, else from the text with Loupe's extractor (the same reading
// the loop gives it). Then, in order:
//   text that tries a call (a family marker or `{"name"`) the extractor cannot read → malformed_call
//   a call to a tool no declared tool answers to                                    → unknown_tool
//   the next plan step                                                               → next_step
//   the last call again                                                               → repeat_last
//   the first step again, with evidence lost and a step done                          → lose_plan
//   any other call (the last call's tool or another)                                   → vary_args
//   no call, with tool-output markers                                                 → fake_output
//   no call, with a promise phrase (the loop's own list) that is not the final answer   → promise
//   no call, steps left                                                               → early_answer
//   no call, every step done                                                          → next_step (the answer)
// The policy never renders one behaviour as another (sim-policy.ts `applicable`): a retry of a
// failed step is next_step, not repeat_last; lose_plan is not drawn where the first step is the
// next step or the last call.
import { extractToolCallsFromContent } from '../provider/ollama/tool-calls';
import { toolResolverFor } from '../provider/ollama/tool-calls';
import { detectNudgeReason } from '../process/policies/nudge-policy';
import { toolDefinitions } from './sim-render';
import { sameCall } from './sim-texts';
import type { SimBehaviour, SimCall, SimPlan, SimProgress, SimReply } from './sim-types';

/** The hallucination guard's markers (hallucination-detector.ts), case-insensitive. */
const TOOL_OUTPUT_MARKER = /\[tool result\]|<<\/?tool_output>>|«\/?tool_output»/i;
/** Text that tries to be a call: a family's marker, or the JSON of one. */
const CALL_ATTEMPT = /<tool_call>|<\|python_tag\|>|\[TOOL_CALLS\]|\{\s*"name"\s*:/;

/** Whether the text is a promise to act, by the loop's own phrase list (nudge-policy.ts promisedAction). */
export function isPromiseText(text: string): boolean {
  return (
    detectNudgeReason({ text, iteration: 1, maxIterations: Number.MAX_SAFE_INTEGER, toolsCalledSoFar: 0, nudgesSoFar: 0 })?.reason ===
    'promisedAction'
  );
}

export function classifyReply(plan: SimPlan, progress: SimProgress, reply: SimReply, knownTools: string[]): SimBehaviour {
  const names = [...new Set([...knownTools, ...plan.steps.map((s) => s.name)])].sort();
  const defs = toolDefinitions(names);
  let calls: SimCall[] = reply.toolCalls;
  const content = reply.content ?? '';
  if (!calls.length && content) {
    const extracted = extractToolCallsFromContent(content, defs, { unknownTools: 'pass', generateId: () => 'sim' });
    calls = extracted.calls.map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
    if (!calls.length && CALL_ATTEMPT.test(content)) return 'malformed_call';
  }
  const next = plan.steps[progress.completed];
  if (calls.length) {
    const call = calls[0];
    if (!toolResolverFor(defs).resolve(call.name)) return 'unknown_tool';
    if (sameCall(call, next)) return 'next_step';
    if (sameCall(call, progress.lastCall)) return 'repeat_last';
    if (progress.evidenceLost && progress.completed > 0 && sameCall(call, plan.steps[0])) return 'lose_plan';
    return 'vary_args';
  }
  if (TOOL_OUTPUT_MARKER.test(content)) return 'fake_output';
  if (isPromiseText(content) && content.trim() !== plan.finalAnswer.trim()) return 'promise';
  return next ? 'early_answer' : 'next_step';
}
