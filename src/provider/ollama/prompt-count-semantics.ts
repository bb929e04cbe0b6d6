// What prompt_eval_count means, by server version. It counts the whole templated prompt (cached
// part included: llm/llama_server.go, cache_n + prompt_n), except in 0.30.x before PR #16428, which
// counted only the tokens evaluated now (the cached prefix left out); early builds (0.1.x) left the
// field out when the prompt was fully cached, and omitempty drops a 0 in every version. Newer
// servers also send prompt_eval_cached_count, the cached part. The prompt's total is then known,
// or null: a truncation check must not judge a count it cannot read. Pure.

export type PromptCountSemantics = 'full_prompt' | 'uncached_only';

export interface PromptCount {
  /** the whole prompt as the server saw it (after any truncation); null = cannot be told */
  total: number | null;
  /** prompt_eval_count as reported (undefined: absent) */
  reported: number | null;
  /** prompt_eval_cached_count (undefined: absent) */
  cached: number | null;
  semantics: PromptCountSemantics;
}

/** Major, minor and patch of "0.30.2", "v0.30.0-rc1", "0.33.0-rc (dev)"; null when not a version. */
export function parseServerVersion(version: string | null | undefined): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec((version ?? '').trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/** An unknown version is taken as current (full prompt); 0.30.x as cache-excluding (which patch took #16428 is not known, and that reading only ever withholds a judgement). */
export function promptCountSemantics(version: string | null | undefined): PromptCountSemantics {
  const v = parseServerVersion(version);
  return v && v[0] === 0 && v[1] === 30 ? 'uncached_only' : 'full_prompt';
}

export function promptCount(input: { version: string | null | undefined; promptEvalCount?: number; cachedCount?: number }): PromptCount {
  const semantics = promptCountSemantics(input.version);
  const reported = input.promptEvalCount ?? null;
  const cached = input.cachedCount ?? null;
  let total: number | null;
  if (semantics === 'full_prompt') total = reported !== null && reported > 0 ? reported : null;
  else if (cached !== null) total = (reported ?? 0) + cached;
  else total = null; // the cached prefix is unknown: the count is only a lower bound
  return { total, reported, cached, semantics };
}
