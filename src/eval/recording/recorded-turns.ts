// A recorded session's model calls read back as scripted turns: each delivered reply becomes a turn
// (content, thinking, native tool calls, done reason, token counts), and the attempts that failed
// before it become the turn's fault — an HTTP error, a connection cut after n lines, an error line,
// a reply never started or stalled until the client gave up — fired that many times. Pure.
import type { ScenarioFaultDocument, ScenarioTurnDocument } from '../scenario/scenario-schema';
import type { StoredExchange } from './trial-replay';

interface WireLine {
  message?: { content?: string; thinking?: string; tool_calls?: Array<{ function?: { name?: string; arguments?: unknown } }> };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

interface ParsedReply {
  lines: WireLine[];
  /** lines that were not JSON objects, with the number of good lines before each */
  malformed: Array<{ after: number }>;
  /** an error line, with the number of good lines before it */
  errorLine?: { after: number; error: string };
  done?: WireLine;
}

function parseReply(x: StoredExchange): ParsedReply {
  const text = x.chunks.map(([, t]) => t).join('');
  const out: ParsedReply = { lines: [], malformed: [] };
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      out.malformed.push({ after: out.lines.length });
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      out.malformed.push({ after: out.lines.length });
      continue;
    }
    const line = value as WireLine;
    if (typeof line.error === 'string') {
      out.errorLine ??= { after: out.lines.length, error: line.error };
      continue;
    }
    out.lines.push(line);
    if (line.done) out.done = line;
  }
  return out;
}

const seconds = (header: string | undefined) => (header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : undefined);

/** Why an attempt delivered no reply, as a scripted fault (undefined: it delivered one). */
export function faultOf(x: StoredExchange): ScenarioFaultDocument | undefined {
  const reply = parseReply(x);
  if (x.status !== null && x.status >= 400) {
    const body = reply.lines[0] as { error?: string } | undefined;
    const error = reply.errorLine?.error ?? body?.error;
    const retryAfter = seconds(x.headers['retry-after']);
    return {
      kind: 'http',
      status: x.status,
      ...(error ? { error } : {}),
      ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
    };
  }
  if (x.status === null) {
    // the client gave up before any answer (first-byte timeout), or the connection failed
    return x.ending === 'client_aborted'
      ? { kind: 'delay_first_byte', ms: Math.ceil(x.endedAtMs) + 1_000 }
      : { kind: 'disconnect', after_chunks: 0 };
  }
  if (reply.errorLine) return { kind: 'error_line', after_chunks: reply.errorLine.after, error: reply.errorLine.error };
  if (x.ending === 'client_aborted' && !reply.done) {
    const lastAt = x.chunks.at(-1)?.[0] ?? 0;
    return { kind: 'stall', after_chunks: reply.lines.length, ms: Math.ceil(x.endedAtMs - lastAt) + 1_000 };
  }
  if (!reply.done) return { kind: 'disconnect', after_chunks: reply.lines.length };
  return undefined;
}

function turnOf(reply: ParsedReply): ScenarioTurnDocument {
  let content = '';
  let thinking = '';
  const toolCalls: NonNullable<ScenarioTurnDocument['tool_calls']> = [];
  for (const l of reply.lines) {
    content += l.message?.content ?? '';
    thinking += l.message?.thinking ?? '';
    for (const c of l.message?.tool_calls ?? []) {
      const args = c.function?.arguments;
      toolCalls.push({
        name: c.function?.name ?? '',
        arguments: (args && typeof args === 'object' && !Array.isArray(args) ? args : {}) as Record<string, unknown>,
      });
    }
  }
  const done = reply.done!;
  return {
    content,
    ...(thinking ? { thinking } : {}),
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(done.done_reason === 'length' ? { done_reason: 'length' as const } : {}),
    ...(typeof done.prompt_eval_count === 'number' ? { prompt_eval_count: done.prompt_eval_count } : {}),
    ...(typeof done.eval_count === 'number' ? { eval_count: done.eval_count } : {}),
  };
}

/** Turns per model, in the order the session asked for them. */
export function turnsFromExchanges(exchanges: readonly StoredExchange[]): Record<string, ScenarioTurnDocument[]> {
  const chats = exchanges
    .filter((x) => x.kind === 'chat')
    .sort((a, b) => (a.upstream === b.upstream ? a.position - b.position : a.upstream < b.upstream ? -1 : 1));
  const turns: Record<string, ScenarioTurnDocument[]> = {};
  const failed: Record<string, ScenarioFaultDocument[]> = {};
  for (const x of chats) {
    const model = x.model;
    const fault = faultOf(x);
    if (fault) {
      (failed[model] ??= []).push(fault);
      continue;
    }
    const reply = parseReply(x);
    const turn = turnOf(reply);
    const before = failed[model] ?? [];
    // a delivered reply with a malformed line in it: the fault fired and the reply still counted
    const inStream: ScenarioFaultDocument | undefined = reply.malformed.length
      ? { kind: 'malformed_line', after_chunks: reply.malformed[0].after }
      : undefined;
    const fault0 = before[0] ?? inStream;
    if (fault0) turn.fault = before.length > 1 ? { ...fault0, times: before.length } : fault0;
    failed[model] = [];
    (turns[model] ??= []).push(turn);
  }
  // attempts that never got a reply end the session on their error: a turn that only fails
  for (const [model, faults] of Object.entries(failed)) {
    if (faults.length) (turns[model] ??= []).push({ fault: faults.length > 1 ? { ...faults[0], times: faults.length } : faults[0] });
  }
  return turns;
}
