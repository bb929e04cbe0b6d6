// A recorded trial's model turns as the fit sees them: each chat exchange of a step (tools offered,
// natively or in the text-mode system prompt) is what the model was sent and what it wrote, exactly
// as it crossed the wire. The view of the request (sim-view.ts) gives the situation, the progress
// and whether evidence was lost; classifyReply gives the behaviour. The same functions the
// simulation decides with, so a simulated run's turns are read back as they were drawn. Pure.
import { faultOf, turnsFromExchanges } from '../eval/recording/recorded-turns';
import type { StoredExchange } from '../eval/recording/trial-replay';
import { classifyReply } from './classify-reply';
import { unobservableBehaviours } from './fit-observable';
import type { FitTurn } from './persona-fit';
import type { SimCall, SimPlan, SimReply } from './sim-types';
import { viewConversation, type SimWireMessage } from './sim-view';

interface ChatRequest {
  model?: string;
  messages?: SimWireMessage[];
  tools?: Array<{ function?: { name?: string } }>;
}

/** One step the model took: what it was sent and what it wrote. */
export interface RecordedStep {
  /** the exchange's position in the session */
  position: number;
  messages: SimWireMessage[];
  /** the tools offered: natively, or listed in the text-mode system prompt */
  tools: string[];
  /** native tool calls were offered (false: text mode) */
  native: boolean;
  /** the reply carried its calls natively (message.tool_calls, parsed by the server) */
  nativeCalls: boolean;
  reply: SimReply;
}

/** Tool names a text-mode system prompt lists (`## name` headings, tool-prompt-templates.ts). */
export function textModeTools(messages: readonly SimWireMessage[]): string[] {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  return [...system.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
}

const asArgs = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The steps of one trial's model `model`, in session order. A request with no tools (compaction,
 * an epilogue, a grace turn) is not a step of the plan; an attempt that delivered no reply (an HTTP
 * error, a cut stream) was not a choice of the model.
 */
export function recordedSteps(exchanges: readonly StoredExchange[], model?: string): RecordedStep[] {
  const steps: RecordedStep[] = [];
  const chats = exchanges
    .filter((x) => x.kind === 'chat' && x.upstream === 'main' && (model === undefined || x.model === model))
    .sort((a, b) => a.position - b.position);
  for (const x of chats) {
    if (faultOf(x)) continue;
    const body = (x.request ?? {}) as ChatRequest;
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const nativeTools = (body.tools ?? []).map((t) => t.function?.name).filter((n): n is string => !!n);
    const tools = nativeTools.length ? nativeTools : textModeTools(messages);
    if (!tools.length) continue;
    const turn = Object.values(turnsFromExchanges([x]))[0]?.[0];
    if (!turn) continue;
    const toolCalls: SimCall[] = (turn.tool_calls ?? []).map((c) => ({ name: c.name, arguments: asArgs(c.arguments) }));
    steps.push({
      position: x.position,
      messages,
      tools,
      native: nativeTools.length > 0,
      nativeCalls: toolCalls.length > 0,
      reply: { content: turn.content ?? '', toolCalls },
    });
  }
  return steps;
}

/** Each step classified in the situation it was taken in. */
export function fitTurnsOf(steps: readonly RecordedStep[], plan: SimPlan): FitTurn[] {
  return steps.map((s) => {
    const progress = viewConversation(s.messages, plan);
    const known = [...new Set([...s.tools, ...plan.steps.map((c) => c.name)])];
    const behaviour = classifyReply(plan, progress, s.reply, known);
    const unobservable = unobservableBehaviours(plan, progress, s.tools);
    return {
      situation: progress.situation,
      evidenceLost: progress.evidenceLost,
      behaviour,
      ...(unobservable.length ? { unobservable } : {}),
    };
  });
}
