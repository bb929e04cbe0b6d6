// One simulated turn, as the stand-in serves it: what the model sees → a seeded draw → its reply.
// The rng is seeded from the persona's name, the request's seed (the trial seed) and the
// conversation as sent, so the same trial replays exactly and another trial seed draws
// independently. The loop's own side calls get what a model asked for them gives: a summary for a
// compaction or an epilogue, the answer (or where it got to) for a grace turn; these are recorded
// as next_step (the fit leaves those calls out: they are not step turns).
import { seededRandom } from '../common/seeded-random';
import { decide } from './sim-policy';
import { renderSummary } from './sim-render';
import { breakTextKind, callMention, isCompactionRequest } from './sim-texts';
import type { Persona, SimDecision, SimPlan } from './sim-types';
import { viewConversation, type SimWireMessage } from './sim-view';

export interface SimRequest {
  messages: SimWireMessage[];
  tools?: Array<{ function?: { name?: string } }>;
  seed?: number;
}

/**
 * The draw's seed: persona, trial seed and the conversation in a canonical form (key order aside).
 * A 64-bit non-cryptographic hash (two multiplicative lanes, mixed at the end) fed string by string:
 * nobody attacks a seed, and a sha256 with its UTF-8 encoding of every message cost more than the
 * rest of the reply. Each field ends in a NUL, so no two conversations feed the same text.
 */
export function replySeed(persona: Pick<Persona, 'name'>, request: Pick<SimRequest, 'messages' | 'seed'>): number {
  const h = new SeedHash();
  h.text(persona.name);
  h.text(String(request.seed ?? 0));
  for (const m of request.messages) {
    h.text(m.role);
    h.text(m.tool_name ?? '');
    h.text(m.content ?? '');
    const calls = m.tool_calls;
    if (calls?.length)
      for (const c of calls) {
        h.text(c.function?.name ?? '');
        h.value(c.function?.arguments);
      }
    h.text('');
  }
  return h.digest();
}

/** cyrb53's two lanes over UTF-16 code units, widened to both lanes' full 32 bits. */
class SeedHash {
  private a = 0xdeadbeef;
  private b = 0x41c6ce57;

  /** `s` then a NUL */
  text(s: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 2654435761);
      b = Math.imul(b ^ c, 1597334677);
    }
    this.a = Math.imul(a, 2654435761);
    this.b = Math.imul(b, 1597334677);
  }

  /** a JSON value in canonical form (keys sorted, undefined members left out), each token typed */
  value(v: unknown): void {
    if (Array.isArray(v)) {
      this.text('[');
      for (const item of v) this.value(item);
      this.text(']');
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      this.text('{');
      for (const k of Object.keys(o).sort()) {
        if (o[k] === undefined) continue;
        this.text(k);
        this.value(o[k]);
      }
      this.text('}');
    } else if (typeof v === 'string') {
      this.text('"');
      this.text(v);
    } else {
      // numbers, booleans, null; undefined and what JSON cannot write read as null
      this.text(JSON.stringify(v) ?? 'null');
    }
  }

  digest(): number {
    let a = this.a;
    let b = this.b;
    a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    return (a ^ b) >>> 0;
  }
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
