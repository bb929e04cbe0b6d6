// What a fitted persona takes from the recorded exchanges besides its probabilities: the family
// (its text format), native or text calls, decode and prefill speed (medians of what the server
// reported) and the context length (the model's, from /api/show, else the largest num_ctx sent). Pure.
import type { StoredExchange } from '../eval/recording/trial-replay';
import type { PersonaShape } from './persona-fit';
import type { SimToolFamily } from './sim-types';

interface DoneLine {
  done?: boolean;
  eval_count?: number;
  eval_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
}

function lines(x: StoredExchange): unknown[] {
  const out: unknown[] = [];
  for (const raw of x.chunks
    .map(([, t]) => t)
    .join('')
    .split('\n')) {
    if (!raw.trim()) continue;
    try {
      out.push(JSON.parse(raw));
    } catch {
      // a malformed line says nothing about speed or family
    }
  }
  return out;
}

const median = (xs: number[]): number | undefined => {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The text format a family's calls are written in, from a name or /api/show's details.family. */
export function toolFamilyOf(name: string): SimToolFamily {
  const n = name.toLowerCase();
  if (n.includes('qwen')) return 'qwen3';
  if (n.includes('llama')) return 'llama3';
  if (n.includes('mistral') || n.includes('devstral')) return 'mistral';
  return 'hermes';
}

export interface ShapeOptions {
  name: string;
  description: string;
  /** every step offered native tool calls */
  native: boolean;
}

/** The persona's shape from one model's exchanges (chat and host descriptions). */
export function shapeOf(model: string, exchanges: readonly StoredExchange[], opts: ShapeOptions): PersonaShape {
  const decode: number[] = [];
  const prefill: number[] = [];
  let numCtx = 0;
  let family: string | undefined;
  let contextLength: number | undefined;
  for (const x of exchanges) {
    if (x.kind === 'chat') {
      const ctx = (x.request as { options?: { num_ctx?: unknown } } | null)?.options?.num_ctx;
      if (typeof ctx === 'number') numCtx = Math.max(numCtx, ctx);
      const done = lines(x).find((l): l is DoneLine => !!l && typeof l === 'object' && (l as DoneLine).done === true);
      if (done?.eval_count && done.eval_duration) decode.push(done.eval_count / (done.eval_duration / 1e9));
      if (done?.prompt_eval_count && done.prompt_eval_duration) prefill.push(done.prompt_eval_count / (done.prompt_eval_duration / 1e9));
    } else if (x.path === '/api/show' && (x.request as { model?: string } | null)?.model === model) {
      const show = lines(x)[0] as { details?: { family?: string }; model_info?: Record<string, unknown> } | undefined;
      family ??= show?.details?.family;
      const key = Object.keys(show?.model_info ?? {}).find((k) => k.endsWith('.context_length'));
      const v = key ? show!.model_info![key] : undefined;
      if (typeof v === 'number') contextLength ??= v;
    }
  }
  return {
    name: opts.name,
    description: opts.description,
    family: toolFamilyOf(family ?? model),
    toolCalls: opts.native ? 'native' : 'text',
    tokensPerSecond: Math.round(median(decode) ?? 30),
    prefillTokensPerSecond: Math.round(median(prefill) ?? 500),
    contextLength: contextLength ?? (numCtx || 8192),
  };
}
