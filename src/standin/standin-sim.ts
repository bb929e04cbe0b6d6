// Simulated models (`sim:<persona>`) on the stand-in: a request for one gets its turn from the
// persona's policy over the conversation it was sent (src/sim), instead of the next scripted turn.
// Everything after the turn — GPU slots, prompt counting, truncation, pacing, tool text — is the
// stand-in's as for any model. The reply is a function of the request (persona, plan, messages,
// seed), so a retried request gets the same turn without a cursor to hand back.
import type { Persona, SimBehaviour, SimPlan, SimReply } from '../sim/sim-types';
import { simulateReply } from '../sim/sim-reply';
import type { StandinModel, StandinToolFormat, StandinTurn } from './standin-script';
import { modelKey } from './standin-model-name';

export interface StandinSimModel {
  persona: Persona;
  /** the task's intended solution, which the persona follows stochastically */
  plan: SimPlan;
}

/** `details.family` as Ollama reports a model of that line, and the text shape its calls take. */
const FAMILY: Record<Persona['family'], { family: string; toolFormat: StandinToolFormat }> = {
  qwen3: { family: 'qwen3', toolFormat: 'hermes' },
  hermes: { family: 'hermes', toolFormat: 'hermes' },
  llama3: { family: 'llama', toolFormat: 'llama' },
  mistral: { family: 'mistral', toolFormat: 'mistral' },
};

/** The catalog entry a persona is served under: its family, context length and speeds; an 8B-sized footprint. */
export function simCatalogModel(name: string, persona: Persona): StandinModel {
  const { family, toolFormat } = FAMILY[persona.family];
  return {
    name,
    family,
    parameterSize: '8.0B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools'],
    sizeBytes: 4_920_753_328,
    vramBytes: 6_170_000_000,
    contextLength: persona.contextLength,
    tokensPerSecond: persona.tokensPerSecond,
    prefillTokensPerSecond: persona.prefillTokensPerSecond,
    toolFormat,
    // a text-mode persona writes its calls in content itself; a native one's calls stay native
    builtinToolParser: persona.toolCalls === 'native' ? undefined : false,
  };
}

/** A persona's reply as a stand-in turn. */
export function simTurn(reply: SimReply): StandinTurn {
  return {
    content: reply.content,
    ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) } : {}),
  };
}

type WireMessage = Parameters<typeof simulateReply>[2]['messages'][number];

/** What the model was sent, as messages: /api/chat's list, or /api/generate's system and prompt. */
function messagesOf(kind: 'chat' | 'generate', body: Record<string, unknown>): WireMessage[] {
  if (kind === 'chat') return (Array.isArray(body.messages) ? body.messages : []) as WireMessage[];
  const out: WireMessage[] = [];
  if (typeof body.system === 'string' && body.system !== '') out.push({ role: 'system', content: body.system });
  out.push({ role: 'user', content: typeof body.prompt === 'string' ? body.prompt : '' });
  return out;
}

export interface SimClaim {
  kind: 'turn';
  /** requests this model got before this one */
  index: number;
  /** the same as index (a simulated turn has no cursor position to hand back) */
  position: number;
  turn: StandinTurn;
  behaviour: SimBehaviour;
}

/** The simulated models one stand-in serves, by Ollama's normalized name. */
export class SimModels {
  private readonly byKey = new Map<string, { name: string; sim: StandinSimModel }>();
  private readonly requests = new Map<string, number>();
  private readonly byName = new Map<string, { key: string; name: string; sim: StandinSimModel } | null>();

  constructor(sim: Record<string, StandinSimModel> = {}) {
    for (const [name, entry] of Object.entries(sim)) this.byKey.set(modelKey(name) ?? name, { name, sim: entry });
  }

  /** Catalog entries for the simulated models (each under the name it was given). */
  catalog(): StandinModel[] {
    return [...this.byKey.values()].map(({ name, sim }) => simCatalogModel(name, sim.persona));
  }

  /** The simulated model a request's name (as sent) is, and its key; null when it is none (by name, so a trial's requests parse it once). */
  private lookup(model: string): { key: string; name: string; sim: StandinSimModel } | null {
    let found = this.byName.get(model);
    if (found === undefined) {
      const key = modelKey(model) ?? model;
      const entry = this.byKey.get(key);
      found = entry ? { key, ...entry } : null;
      // names come from clients: bounded, though a run sends a handful
      if (this.byName.size >= 256) this.byName.clear();
      this.byName.set(model, found);
    }
    return found;
  }

  /** The persona's turn for this request; undefined when `model` is not simulated here. */
  claim(model: string, kind: 'chat' | 'generate', body: Record<string, unknown>): SimClaim | undefined {
    // every chat request asks, scripted ones too: a name that is not simulated costs a map lookup
    if (this.byKey.size === 0) return undefined;
    const entry = this.lookup(model);
    if (!entry) return undefined;
    const key = entry.key;
    const options = body.options as Record<string, unknown> | undefined;
    const seed = typeof options?.seed === 'number' ? options.seed : undefined;
    const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: string } }>) : undefined;
    const decision = simulateReply(entry.sim.persona, entry.sim.plan, { messages: messagesOf(kind, body), tools, seed });
    const index = this.requests.get(key) ?? 0;
    this.requests.set(key, index + 1);
    return { kind: 'turn', index, position: index, turn: simTurn(decision.reply), behaviour: decision.behaviour };
  }

  reset(): void {
    this.requests.clear();
  }
}
