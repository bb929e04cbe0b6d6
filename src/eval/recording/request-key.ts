// What makes two model requests "the same request" for a recording: the body as sent, with what
// legitimately differs between a run and its replay taken out — tool-call ids (random per reply
// when the server sends none; renamed in order of appearance), the session's workspace path and its session id — and the
// request's `options.seed`, which is the trial's (keyed by its index already; a replay sends the recorded run's seeds). Keys
// are sorted, so the hash is of the content, not of the serialization. Pure.
import { createHash } from 'node:crypto';

export interface RequestContext {
  /** the trial's workspace directory (absolute) */
  workspaceDir?: string | null;
  sessionId?: string | null;
}

const WORKSPACE = '<workspace>';
const SESSION = '<session>';

/** The request with tool-call ids renamed in order of appearance (`call#1`…) and the context's paths and ids replaced. */
export function normalizeRequest(body: unknown, context: RequestContext = {}): unknown {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    let renamed = ids.get(id);
    if (!renamed) ids.set(id, (renamed = `call#${ids.size + 1}`));
    return renamed;
  };
  const replacements: Array<[string, string]> = [];
  if (context.workspaceDir) replacements.push([context.workspaceDir, WORKSPACE]);
  if (context.sessionId) replacements.push([context.sessionId, SESSION]);
  const text = (s: string) => replacements.reduce((acc, [from, to]) => acc.split(from).join(to), s);
  body = withoutSeed(body);
  // an id is a tool call's (`{id, function}`) or a tool result's reference to one; an `id` inside a
  // tool's arguments is content and stays
  const walk = (value: unknown, isId = false): unknown => {
    if (typeof value === 'string') return isId && value ? idOf(value) : text(value);
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const isToolCall = 'function' in record;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(record).sort()) out[k] = walk(record[k], (k === 'id' && isToolCall) || k === 'tool_call_id');
    return out;
  };
  return walk(body);
}

function withoutSeed(body: unknown): unknown {
  const options = body && typeof body === 'object' ? (body as { options?: unknown }).options : undefined;
  if (!options || typeof options !== 'object' || !('seed' in options)) return body;
  const { seed: _seed, ...rest } = options as Record<string, unknown>;
  return { ...(body as Record<string, unknown>), options: rest };
}

/** sha256 (hex, 32 chars) of the normalized request. */
export function requestHash(body: unknown, context: RequestContext = {}): string {
  return createHash('sha256')
    .update(JSON.stringify(normalizeRequest(body, context)) ?? 'undefined')
    .digest('hex')
    .slice(0, 32);
}

export interface RequestDifference {
  /** where the two first differ, e.g. `messages[4].content` ('' = the whole body) */
  path: string;
  recorded: string;
  sent: string;
}

const EXCERPT = 160;

function excerpt(value: unknown, from = 0): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const start = Math.max(0, from - 40);
  const cut = text.slice(start, start + EXCERPT);
  return `${start > 0 ? '…' : ''}${JSON.stringify(cut).slice(1, -1)}${start + EXCERPT < text.length ? '…' : ''}`;
}

/** The first place two normalized requests differ (depth first, keys in order), or null when they are equal. */
export function firstDifference(recorded: unknown, sent: unknown, path = ''): RequestDifference | null {
  if (recorded === sent) return null;
  if (typeof recorded === 'string' && typeof sent === 'string') {
    let i = 0;
    while (i < recorded.length && recorded[i] === sent[i]) i++;
    return { path, recorded: excerpt(recorded, i), sent: excerpt(sent, i) };
  }
  if (Array.isArray(recorded) && Array.isArray(sent)) {
    for (let i = 0; i < Math.max(recorded.length, sent.length); i++) {
      const d = firstDifference(recorded[i], sent[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(recorded) && isObject(sent)) {
    for (const k of [...new Set([...Object.keys(recorded), ...Object.keys(sent)])].sort()) {
      const d = firstDifference(recorded[k], sent[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return { path, recorded: excerpt(recorded), sent: excerpt(sent) };
}

/** One line a person can act on: which request, where it differs, both values. */
export function describeDifference(position: number, d: RequestDifference): string {
  return `request ${position + 1} of the session differs from the recording at ${d.path || '(the body)'}: recorded "${d.recorded}", sent "${d.sent}"`;
}
