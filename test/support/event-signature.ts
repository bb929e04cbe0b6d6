// What "the same session" means for a replay: the same sequence of journal event types, and the
// same decision payloads — with what a replay cannot and should not reproduce taken out: wall-clock
// measurements (fields in ms, except a server's Retry-After), process ids, host URLs (each trial
// gets its own stand-in port), workspace paths, and tool-call ids (renamed by order of appearance, as request hashes do).
import { Client } from 'pg';

const VOLATILE = new Set(['pid', 'host', 'url', 'traceId', 'spanId']);
const WORKSPACE = /workspaces\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export function normalizePayload(value: unknown, ids = new Map<string, string>(), key?: string): unknown {
  if (typeof value === 'string') {
    if ((key === 'id' || key === 'callId') && value) {
      if (!ids.has(value)) ids.set(value, `call#${ids.size + 1}`);
      return ids.get(value);
    }
    // each trial works in its own workspace (an MCP server's stderr, a tool's error may name it)
    return value.replace(WORKSPACE, 'workspaces/<workspace>');
  }
  if (Array.isArray(value)) return value.map((v) => normalizePayload(v, ids));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    if (VOLATILE.has(k) || (k.endsWith('Ms') && k !== 'retryAfterMs')) continue;
    out[k] = normalizePayload((value as Record<string, unknown>)[k], ids, k);
  }
  return out;
}

export interface SessionSignature {
  trialKey: string;
  types: string[];
  payloads: unknown[];
}

/** Each finished trial of a run (final attempt) as its session's event types and normalized payloads, by trial key. */
export async function runSignatures(db: Client, runId: string): Promise<Map<string, SessionSignature>> {
  const trials = (
    await db.query(
      `SELECT DISTINCT ON (scenario_id, model, config_key, trial_index) scenario_id, model, config_key, trial_index, session_id, status
         FROM eval_trials WHERE run_id = $1 AND status IN ('passed', 'failed', 'error')
        ORDER BY scenario_id, model, config_key, trial_index, attempt DESC`,
      [runId],
    )
  ).rows as Array<{ scenario_id: string; model: string; config_key: string; trial_index: number; session_id: string | null }>;
  const out = new Map<string, SessionSignature>();
  for (const t of trials) {
    const key = `${t.scenario_id}|${t.model}|${t.config_key}#${t.trial_index}`;
    const events = t.session_id
      ? ((await db.query(`SELECT type, payload, originals FROM events WHERE session_id = $1 ORDER BY seq`, [t.session_id])).rows as Array<{
          type: string;
          payload: Record<string, unknown>;
          originals: string | null;
        }>)
      : [];
    const ids = new Map<string, string>();
    out.set(key, {
      trialKey: key,
      types: events.map((e) => e.type),
      payloads: events.map((e) => normalizePayload(e.originals ? { ...e.payload, ...JSON.parse(e.originals).payload } : e.payload, ids)),
    });
  }
  return out;
}

/** The first event where two sessions part (null: the same). */
export function firstDivergence(a: SessionSignature, b: SessionSignature): string | null {
  for (let i = 0; i < Math.max(a.types.length, b.types.length); i++) {
    if (a.types[i] !== b.types[i]) return `${a.trialKey}: event ${i}: ${a.types[i] ?? '(none)'} vs ${b.types[i] ?? '(none)'}`;
    const pa = JSON.stringify(a.payloads[i]);
    const pb = JSON.stringify(b.payloads[i]);
    if (pa !== pb) return `${a.trialKey}: event ${i} (${a.types[i]}) payload: ${pa.slice(0, 300)} vs ${pb.slice(0, 300)}`;
  }
  return null;
}
