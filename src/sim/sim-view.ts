// What a simulated model can see in the messages it is sent (an Ollama /api/chat request, after the
// loop's trims, prunes and compactions): how far along the plan it is, its last call, whether
// evidence of done steps is gone from its context, and what the loop just did (the situation).
//
// Progress is read from the visible calls in order: a call equal to the next plan step, with its
// result visible (any result: a plan step may fail by design, e.g. running the failing test), moves
// the model on; a denied step counts as done (it is told not to retry); a call equal to the first
// step after later ones is a restart (a lost plan); a call equal to a later step skips ahead (the
// steps between were trimmed out). Steps a compaction summary or trim note names count as done
// before the walk. Evidence of a done step is lost when neither its call with a result that still
// has content nor a compaction summary naming it is visible (trim notes keep only a first line).
import type { SimCall, SimPlan, SimProgress, SimSituation } from './sim-types';
import {
  breakTextKind,
  callMention,
  isDenialText,
  isErrorText,
  isNudgeText,
  isPrunedText,
  isSummaryText,
  isTrimNoteText,
  sameCall,
  textModeResults,
  trimNoteMention,
} from './sim-texts';

/** A message of an Ollama /api/chat request, as much of it as the view reads. */
export interface SimWireMessage {
  role: string;
  content?: string;
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
  tool_name?: string;
}

type Outcome = 'ok' | 'pruned' | 'denied' | 'error';

interface SeenCall {
  call: SimCall;
  /** its result as visible; undefined: none visible (not run, or removed) */
  outcome?: Outcome;
}

function outcomeOf(content: string): Outcome {
  if (isDenialText(content)) return 'denied';
  if (isPrunedText(content)) return 'pruned';
  return isErrorText(content) ? 'error' : 'ok';
}

function asArgs(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return asArgs(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Text mode: Loupe replays an assistant turn's calls as the JSON array it taught (`text\n\n[{"name":…}]`). */
function replayedTextCalls(content: string): SimCall[] {
  const k = content.startsWith('[{"name":') ? 0 : content.lastIndexOf('\n\n[{"name":');
  if (k < 0) return [];
  const at = k === 0 ? 0 : k + 2;
  try {
    const parsed = JSON.parse(content.slice(at)) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((c): c is { name: string; arguments?: unknown } => typeof (c as { name?: unknown })?.name === 'string')
      .map((c) => ({ name: c.name, arguments: asArgs(c.arguments) }));
  } catch {
    return [];
  }
}

function callsOf(m: SimWireMessage): SimCall[] {
  if (m.tool_calls?.length) return m.tool_calls.map((c) => ({ name: c.function.name, arguments: asArgs(c.function.arguments) }));
  return m.content ? replayedTextCalls(m.content) : [];
}

interface Reading {
  calls: SeenCall[];
  summaries: string[];
  trimNotes: string[];
  lastCall?: SimCall;
  situation: SimSituation;
}

/**
 * One pass over the messages: the visible calls with their outcomes, the summaries and trim notes,
 * and the situation — what the loop did after the model's last turn, from the messages that
 * follow it (a break outranks a nudge, a nudge a denial, a denial an error).
 */
function read(messages: readonly SimWireMessage[]): Reading {
  const calls: SeenCall[] = [];
  const summaries: string[] = [];
  const trimNotes: string[] = [];
  let seenAssistant = false;
  let lastCall: SimCall | undefined;
  // the results still owed to the latest assistant message's calls, in call order
  let pending: SeenCall[] = [];
  // what followed the latest assistant message
  let broke = false;
  let nudged = false;
  let denied = false;
  let failed = false;
  for (const m of messages) {
    const content = m.content ?? '';
    if (m.role === 'assistant') {
      seenAssistant = true;
      broke = nudged = denied = failed = false;
      pending = callsOf(m).map((call) => ({ call }));
      for (const seen of pending) calls.push(seen);
      if (pending.length) lastCall = pending[pending.length - 1].call;
      continue;
    }
    if (m.role === 'tool') {
      const outcome = outcomeOf(content);
      denied ||= outcome === 'denied';
      // an error text counts for the situation even where it reads as denied or pruned first
      failed ||= outcome === 'error' || (outcome !== 'ok' && isErrorText(content));
      const owner = ownerOf(pending, m.tool_name);
      if (owner) owner.outcome = outcome;
      continue;
    }
    if (m.role !== 'user') continue;
    if (isSummaryText(content)) summaries.push(content);
    else if (isTrimNoteText(content)) trimNotes.push(content);
    if (seenAssistant && !broke) {
      broke = breakTextKind(content) !== undefined;
      nudged ||= isNudgeText(content);
    }
    const results = textModeResults(content);
    if (!results) continue;
    for (const r of results) {
      const outcome = outcomeOf(r.content);
      denied ||= outcome === 'denied';
      failed ||= outcome === 'error' || (outcome !== 'ok' && isErrorText(r.content));
      const owner = ownerOf(pending, r.name);
      if (owner) owner.outcome = outcome;
    }
  }
  const situation: SimSituation = !seenAssistant
    ? 'base'
    : broke
      ? 'after_break'
      : nudged
        ? 'after_nudge'
        : denied
          ? 'after_denial'
          : failed
            ? 'after_error'
            : 'base';
  return { calls, summaries, trimNotes, lastCall, situation };
}

/** The first call still owed a result: the first of that name, else the first of any. */
function ownerOf(pending: readonly SeenCall[], name: string | undefined): SeenCall | undefined {
  let any: SeenCall | undefined;
  for (const p of pending) {
    if (p.outcome !== undefined) continue;
    if (!name || p.call.name === name) return p;
    any ??= p;
  }
  return any;
}

export function viewConversation(messages: SimWireMessage[], plan: SimPlan): SimProgress {
  const { calls, summaries, trimNotes, lastCall, situation } = read(messages);
  const steps = plan.steps;
  const inSummary = steps.map((s) => summaries.some((t) => t.includes(callMention(s))));
  const inTrimNote = steps.map((s) => trimNotes.some((t) => t.includes(trimNoteMention(s))));
  // what each done step's evidence is: a visible call with its outcome, else whatever names it
  const evidence: Array<Outcome | undefined> = [];
  let p = 0;
  while (p < steps.length && (inSummary[p] || inTrimNote[p])) p++;
  for (const { call, outcome } of calls) {
    if (outcome === undefined) continue;
    if (p < steps.length && sameCall(call, steps[p])) {
      evidence[p++] = outcome;
    } else if (p > 0 && sameCall(call, steps[0])) {
      // it started over: only what it redoes from here counts
      evidence.length = 0;
      evidence[0] = outcome;
      p = 1;
    } else {
      const j = steps.findIndex((s, k) => k > p && sameCall(call, s));
      if (j > 0) {
        evidence[j] = outcome;
        p = j + 1;
      }
    }
  }
  let evidenceLost = false;
  for (let i = 0; i < p && !evidenceLost; i++) {
    const e = evidence[i];
    const visible = e === 'ok' || e === 'denied' || e === 'error';
    evidenceLost = !visible && !inSummary[i];
  }
  return {
    completed: p,
    ...(lastCall ? { lastCall } : {}),
    evidenceLost,
    situation,
  };
}
