// gemini-cli's grace recovery turn at the iteration cap (./policies/cap-recovery): one tools-off model
// call with the final warning, cancelled when the grace period runs out. The call is not a loop turn
// (its iteration's purpose is grace_turn, as the epilogue's is epilogue): the cap counted the turns,
// this is the one recovery gemini-cli allows after them.
import { renderForModel } from '../context';
import { ProviderError } from '../provider/provider-errors';
import type { LoopOutcome } from './agent-loop';
import { beginIteration, endIteration, runInference } from './inference-step';
import type { LoopRuntime } from './loop-runtime';
import { judgeGraceTurn, planGraceTurn, type GraceTurnReply } from './policies/cap-recovery';

/** The loop's outcome after a grace turn, when one is due: completed with the answer, or unchanged. */
export async function runGraceTurn(rt: LoopRuntime, outcome: LoopOutcome): Promise<LoopOutcome> {
  const plan = planGraceTurn(outcome.reason, rt.settings);
  if (!plan) return outcome;
  const iteration = beginIteration(rt, 'grace_turn');
  rt.append({ role: 'user', kind: 'nudge', content: plan.message }, iteration);
  const grace = new AbortController();
  const timer = setTimeout(() => grace.abort(new Error(`grace period of ${plan.timeoutMs} ms ran out`)), plan.timeoutMs);
  const started = Date.now();
  let reply: GraceTurnReply;
  try {
    const result = await runInference(rt, iteration, {
      purpose: 'grace_turn',
      messages: renderForModel(rt.context),
      tools: [],
      signal: AbortSignal.any([rt.signal, grace.signal]),
    });
    reply = { kind: 'reply', content: result.content, toolCalls: result.toolCalls };
    rt.append({ role: 'assistant', kind: 'assistant', content: result.content, thinking: result.thinking }, iteration);
  } catch (e) {
    // a kill ends the session as it would anywhere else
    if (rt.signal.aborted) throw e;
    reply = grace.signal.aborted ? { kind: 'timed_out' } : { kind: 'failed', message: (e as Error).message };
    if (reply.kind === 'failed')
      rt.record(
        'error',
        { phase: 'grace_turn', message: reply.message, ...(ProviderError.isInstance(e) ? { kind: e.info.kind } : {}) },
        iteration,
      );
  } finally {
    clearTimeout(timer);
  }
  const verdict = judgeGraceTurn(reply);
  rt.record(
    'grace_turn',
    {
      reason: 'max_iterations',
      timeoutMs: plan.timeoutMs,
      recovered: verdict.recovered,
      ...(verdict.recovered ? {} : { why: verdict.why }),
      waitedMs: Date.now() - started,
      chars: reply.kind === 'reply' ? reply.content.length : 0,
    },
    iteration,
  );
  endIteration(rt, iteration, verdict.recovered ? 'grace_turn' : 'grace_turn_failed', reply.kind === 'failed' ? 'failed' : 'finished');
  return verdict.recovered ? { reason: 'completed', finalAnswer: verdict.finalAnswer } : outcome;
}
