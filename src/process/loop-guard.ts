// Loop control after a step, as the session's profile decides: the detectors (pure, ./policies) look
// at the calls since detection last restarted and at the reply's text; a detected loop then breaks,
// asks a person (opencode's doom_loop permission), or warns the model first (gemini-cli's strikes).
// Going on after a warning or an approval is another turn: at the iteration cap the loop stops instead.
import { ask } from './approval-step';
import type { LoopRuntime } from './loop-runtime';
import { detectContentLoop, type ContentLoopBreak } from './policies/content-loop-detector';
import { evaluateLoopControl, type LoopBreak } from './policies/loop-control';
import { capRulesOut, type MaxIterationsBreak } from './policies/max-iterations';
import { detectRepeat, type RepeatBreak } from './policies/repeat-detector';
import { LOOP_WARNING_MESSAGE, decideLoopResponse } from './policies/loop-response';

export type DetectedLoop = LoopBreak | ContentLoopBreak;

/** After a step's tool calls ran: the loop to break on, or null to go on. */
export async function checkLoopAfterTools(
  rt: LoopRuntime,
  iteration: number,
  step: number,
  replyText: string,
  replyCallCount: number,
): Promise<DetectedLoop | null> {
  const s = rt.settings;
  const window = rt.calls.slice(rt.loopWindowStart);
  const control = evaluateLoopControl(window, {
    iteration: step,
    maxIterations: s.maxToolIterations,
    // opencode looks for identical calls inside one reply only (its approvals ask before the third runs)
    repeatThreshold: s.repeatScope === 'reply' ? 0 : s.repeatThreshold,
    sameToolThreshold: s.sameToolThreshold,
    errorRepeatThreshold: s.errorRepeatThreshold,
    cycle: { repetitions: s.cycleRepetitions, maxPeriod: s.cycleMaxPeriod },
    keyMode: s.callKey,
  });
  const inReply =
    s.repeatScope === 'reply' && s.doomLoop !== 'ask' && s.repeatThreshold > 0
      ? detectRepeat(window.slice(-replyCallCount), s.repeatThreshold, s.callKey)
      : null;
  const detected = control.kind !== 'continue' ? control : (inReply ?? detectContentLoop(replyText, s.contentLoopThreshold));
  if (!detected) return null;
  return goOnAfter(rt, iteration, step, detected);
}

/** A reply without tool calls: only the text can loop. */
export async function checkLoopInText(
  rt: LoopRuntime,
  iteration: number,
  step: number,
  replyText: string,
): Promise<ContentLoopBreak | MaxIterationsBreak | 'warned' | null> {
  const detected = detectContentLoop(replyText, rt.settings.contentLoopThreshold);
  if (!detected) return null;
  return (await goOnAfter(rt, iteration, step, detected)) ?? 'warned';
}

/** The loop to break on after a detection, or null when it goes on: approved by a person, or warned (a strike left). */
async function goOnAfter<D extends DetectedLoop>(
  rt: LoopRuntime,
  iteration: number,
  step: number,
  detected: D,
): Promise<D | MaxIterationsBreak | null> {
  const response = decideLoopResponse({
    kind: detected.kind,
    doomLoop: rt.settings.doomLoop,
    strikesSoFar: rt.loopStrikes,
    loopNudges: rt.settings.loopNudges,
  });
  if (response === 'break') return detected;
  // invariant 2: nobody is asked, and no warning given, where the loop could not go on anyway
  const cap = capRulesOut(step, rt.settings.maxToolIterations, response === 'ask' ? 'doom_loop_ask' : 'loop_warning');
  if (cap) return cap;
  switch (response) {
    case 'ask':
      return (await doomLoopAllowed(rt, iteration, detected as unknown as RepeatBreak)) ? null : detected;
    case 'warn':
      rt.loopStrikes++;
      rt.loopWindowStart = rt.calls.length;
      rt.record(
        'nudge',
        { reason: 'loopDetected', evidence: { length: 0, iteration, loop: detected.kind }, count: rt.loopStrikes },
        iteration,
      );
      rt.append({ role: 'user', kind: 'nudge', content: LOOP_WARNING_MESSAGE }, iteration);
      return null;
  }
}

/**
 * The doom-loop permission: a repeated call asks whether to go on instead of breaking. Approved: the
 * loop continues; rejected or unanswered: it breaks.
 */
async function doomLoopAllowed(rt: LoopRuntime, iteration: number, repeat: RepeatBreak): Promise<boolean> {
  const last = repeat.calls[repeat.calls.length - 1];
  const callId = `doom_loop_${rt.options.sessionId.slice(0, 8)}_${rt.calls.length}`;
  const verdict = await ask(rt, iteration, {
    callId,
    name: 'doom_loop',
    args: { tool: last.name, arguments: last.arguments, count: repeat.count },
    queuePosition: 1,
    totalInQueue: 1,
  });
  rt.record(
    'approval_decided',
    {
      callId,
      name: 'doom_loop',
      decision: verdict.approved ? 'allow' : 'deny',
      rule: 'doom_loop',
      by: verdict.by,
      ...(verdict.reason ? { reason: verdict.reason } : {}),
      waitedMs: verdict.waitedMs,
    },
    iteration,
  );
  return verdict.approved;
}
