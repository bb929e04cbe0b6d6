// One simulated turn, as the stand-in serves it: what the model sees → a seeded draw → its reply.
// The rng is seeded from the persona's name, the request's seed (the trial seed) and the
// conversation as sent, so the same trial replays exactly and another trial seed draws
// independently. The loop's own side calls get what a model asked for them gives: a summary for a
// compaction or an epilogue, the answer (or where it got to) for a grace turn; these are recorded
// as next_step (the fit leaves those calls out: they are not step turns).
import { createHash } from 'node:crypto';
import { seededRandom } from '../common/seeded-random';
import { decide } from './sim-policy';
import { renderSummary } from './sim-render';
import { breakTextKind, callMention, canonicalJson, isCompactionRequest } from './sim-texts';
import type { Persona, SimDecision, SimPlan } from './sim-types';
import { viewConversation, type SimWireMessage } from './sim-view';

export interface SimRequest {
  messages: SimWireMessage[];
  tools?: Array<{ function?: { name?: string } }>;
  seed?: number;
}

/** The draw's seed: persona, trial seed and the conversation in a canonical form (key order aside). */
export function replySeed(persona: Pick<Persona, 'name'>, request: Pick<SimRequest, 'messages' | 'seed'>): number {
  const h = createHash('sha256');
  h.update(`${persona.name}\u0000${request.seed ?? 0}\u0000`);
  for (const m of request.messages) {
    // each field ends in a NUL, so no two conversations hash the same text
    h.update(`${m.role}\u0000${m.tool_name ?? ''}\u0000`);
    h.update(m.content ?? '');
    h.update(
      `\u0000${m.tool_calls?.length ? canonicalJson(m.tool_calls.map((c) => [c.function?.name, c.function?.arguments])) : ''}\u0000`,
    );
  }
  return h.digest().readUInt32LE(0);
}

/** The plan steps a compaction request's conversation (or previous summary) shows done: `→ name({…})` or a summary's mention. */
function doneInCompactionRequest(text: string, plan: SimPlan): boolean[] {
  return plan.steps.map((s) => {
    // the request clips each call's arguments to 300 characters
    const call = `→ ${s.name}(${JSON.stringify(s.arguments ?? {})}`.slice(0, 290);
    return text.includes(call) || text.includes(callMention(s));
  });
}

export function simulateReply(persona: Persona, plan: SimPlan, request: SimRequest): SimDecision {
  const messages = request.messages;
  if (isCompactionRequest(messages)) {
    const text = messages.map((m) => m.content ?? '').join('\n');
    return { behaviour: 'next_step', reply: renderSummary(plan, doneInCompactionRequest(text, plan)) };
  }
  const progress = viewConversation(messages, plan);
  const last = messages[messages.length - 1];
  const closing = last?.role === 'user' ? breakTextKind(last.content ?? '') : undefined;
  if (closing === 'epilogue' || closing === 'grace') {
    const done = plan.steps.map((_, i) => i < progress.completed);
    if (closing === 'grace' && progress.completed >= plan.steps.length)
      return { behaviour: 'next_step', reply: { content: plan.finalAnswer, toolCalls: [] } };
    return { behaviour: 'next_step', reply: renderSummary(plan, done) };
  }
  const tools = (request.tools ?? []).map((t) => t.function?.name).filter((n): n is string => !!n);
  return decide(persona, plan, progress, seededRandom(replySeed(persona, request)), tools);
}
