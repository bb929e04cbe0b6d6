// Invariants that must hold in any run, scripted or live: whatever the model did, Loupe's loop
// control must have held. A violation is a Loupe bug, and the trial says so.
import { LOOP_BREAK_KINDS } from '../../journal/events/loop-vocabulary';
import { eventsOfType } from '../../journal/journal-events';
import type { RecordedSession } from '../expectations/recorded-session';

export interface InvariantViolation {
  invariant: InvariantName;
  detail: string;
}

export type InvariantName =
  | 'slot_acquired_once_released_once'
  | 'loop_bounded'
  | 'break_followed_by_epilogue'
  | 'tool_result_within_cap'
  | 'tool_calls_closed'
  | 'approval_wait_accounted'
  | 'session_finished_last';

const BREAKS = new Set<string>(LOOP_BREAK_KINDS);
const TERMINAL = new Set(['completed', 'failed', 'rejected', 'aborted']);
/** direct-process.spec.md invariant 6: a result never exceeds 30% of the window (3 chars/token), nor 1,000 chars below that */
const windowCapChars = (numCtx: number, charsPerToken = 3) => Math.max(1_000, Math.floor(numCtx * 0.3) * charsPerToken);

const of = eventsOfType;
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

type Check = (s: RecordedSession, settings: Record<string, unknown>) => string | undefined;

const CHECKS: Record<InvariantName, Check> = {
  // direct-process.spec.md invariant 1
  slot_acquired_once_released_once: (s) => {
    const acquired = of(s.events, 'slot_acquired').length;
    const released = of(s.events, 'slot_released').length;
    if (acquired > 1) return `slot acquired ${acquired} times`;
    if (released !== acquired) return `slot acquired ${acquired} time(s), released ${released} time(s)`;
    return undefined;
  },
  // invariant 2: at most maxToolIterations loop turns, each one model call that answered (a nudge's,
  // a warning's or an approved doom loop's re-ask is a turn too), plus at most one epilogue;
  // compaction calls are context management, not turns, and a request the server refused and that
  // was sent again after recovery is the same turn
  loop_bounded: (s, settings) => {
    const max = num(settings.maxToolIterations);
    const steps = of(s.events, 'iteration_started').filter((e) => e.payload.purpose === 'step').length;
    const calls = of(s.events, 'inference_response').filter((e) => e.payload.purpose === 'step').length;
    const epilogues = of(s.events, 'iteration_started').filter((e) => e.payload.purpose === 'epilogue').length;
    if (max !== undefined && steps > max) return `${steps} loop steps, more than maxToolIterations ${max}`;
    if (max !== undefined && calls > max) return `${calls} step model calls answered, more than maxToolIterations ${max}`;
    if (epilogues > 1) return `${epilogues} epilogues`;
    // gemini-cli's grace turn: the one call past the cap, only under a profile that has it, only at the cap
    const grace = of(s.events, 'iteration_started').filter((e) => e.payload.purpose === 'grace_turn');
    if (grace.length && settings.capRecovery !== 'grace_turn') return `a grace turn ran under capRecovery ${String(settings.capRecovery)}`;
    if (grace.length > 1) return `${grace.length} grace turns`;
    if (grace.length && !of(s.events, 'max_iterations').length) return 'a grace turn ran without the iteration cap being reached';
    return undefined;
  },
  // invariant 9: an abnormal break is followed by one model call with tools off (unless the session was
  // killed) — under a profile with an epilogue; under one without, no epilogue may follow
  break_followed_by_epilogue: (s, settings) => {
    const brk = s.events.find((e) => BREAKS.has(e.type));
    if (settings.epilogue === 'none') {
      const epilogue = s.events.find((e) => e.type === 'iteration_started' && e.payload.purpose === 'epilogue');
      return epilogue ? `an epilogue ran under profile ${String(settings.profile)}, which has none` : undefined;
    }
    if (!brk || s.terminationReason === 'aborted' || s.terminationReason === 'interrupted') return undefined;
    const epilogue = of(s.events, 'inference_request').find((e) => e.seq > brk.seq && e.payload.purpose === 'epilogue');
    if (!epilogue) return `${brk.type} at seq ${brk.seq} has no epilogue request after it`;
    if (epilogue.payload.toolsSent !== false || num(epilogue.payload.toolCount) !== 0)
      return `the epilogue after ${brk.type} was sent with tools`;
    return undefined;
  },
  // invariant 6: no result above its cap, and every result above the profile's cap (the window's share,
  // or a fixed size) was capped; a profile without a cap caps nothing
  tool_result_within_cap: (s, settings) => {
    for (const c of of(s.events, 'tool_result_capped')) {
      if ((num(c.payload.keptChars) ?? 0) > (num(c.payload.maxChars) ?? Infinity))
        return `call ${String(c.payload.id)} kept ${c.payload.keptChars} chars over its cap ${c.payload.maxChars}`;
    }
    const mode = settings.toolResultCap ?? 'context_share';
    const numCtx = num(settings.numCtx);
    if (mode === 'off') {
      const capped = of(s.events, 'tool_result_capped')[0];
      return capped
        ? `call ${String(capped.payload.id)} was capped under profile ${String(settings.profile)}, which caps nothing`
        : undefined;
    }
    const limit =
      mode === 'fixed_chars'
        ? num(settings.toolResultMaxChars)
        : numCtx === undefined
          ? undefined
          : windowCapChars(numCtx, num(settings.toolResultCharsPerToken) || 3);
    if (limit === undefined) return undefined;
    const capped = new Set(of(s.events, 'tool_result_capped').map((e) => e.payload.id));
    for (const r of [...of(s.events, 'tool_result'), ...of(s.events, 'tool_error')]) {
      if ((num(r.payload.chars) ?? 0) > limit && !capped.has(r.payload.id))
        return `call ${String(r.payload.id)} returned ${r.payload.chars} chars, over the ${limit}-char cap, uncapped`;
    }
    return undefined;
  },
  // every call reaches an outcome (pending → … → completed/failed/rejected/aborted) and gets a result event
  tool_calls_closed: (s) => {
    const open = s.toolCalls.filter((c) => !TERMINAL.has(c.status));
    if (open.length) return `tool call(s) left ${open.map((c) => `${c.id}:${c.status}`).join(', ')}`;
    if (s.terminationReason === 'aborted' || s.terminationReason === 'interrupted') return undefined;
    const answered = new Set([...of(s.events, 'tool_result'), ...of(s.events, 'tool_error')].map((e) => e.payload.id));
    const unanswered = of(s.events, 'tool_call').filter((e) => !answered.has(e.payload.id));
    return unanswered.length ? `tool call(s) without a result: ${unanswered.map((e) => String(e.payload.id)).join(', ')}` : undefined;
  },
  // approval time is counted once: the session's total is the sum of its decisions' waits, and the
  // working time (elapsed less that total) is never negative
  approval_wait_accounted: (s) => {
    const finished = of(s.events, 'session_finished')[0];
    if (!finished) return undefined;
    const working = num(finished.payload.workingMs);
    const total = num(finished.payload.approvalWaitMs);
    if (working !== undefined && working < 0) return `workingMs ${working} is negative (approvalWaitMs ${total})`;
    // a session closed by the next start (interrupted) or killed mid-ask has no decision for its last wait
    if (total === undefined || s.terminationReason === 'aborted' || s.terminationReason === 'interrupted') return undefined;
    const decided = of(s.events, 'approval_decided').reduce((sum, e) => sum + (num(e.payload.waitedMs) ?? 0), 0);
    return total !== decided ? `approvalWaitMs ${total}, but the decisions waited ${decided} ms in all` : undefined;
  },
  session_finished_last: (s) => {
    const finished = of(s.events, 'session_finished');
    if (finished.length !== 1) return `${finished.length} session_finished events`;
    const last = s.events[s.events.length - 1];
    if (last.type !== 'session_finished') return `${last.type} recorded after session_finished`;
    const gaps = s.events.filter((e, i) => e.seq !== i);
    return gaps.length ? `event sequence has a gap at seq ${gaps[0].seq}` : undefined;
  },
};

export const INVARIANT_NAMES = Object.keys(CHECKS) as InvariantName[];

export function checkInvariants(session: RecordedSession): InvariantViolation[] {
  const settings = eventsOfType(session.events, 'session_started')[0]?.payload.settings ?? {};
  return INVARIANT_NAMES.flatMap((invariant) => {
    const detail = CHECKS[invariant](session, settings);
    return detail ? [{ invariant, detail }] : [];
  });
}
