// What prompt_eval_count means on each Ollama version, in one table, so the stand-in set to a
// version reports what that server would. Sources (ollama/ollama):
// - before 0.4.0 (the llama.cpp server runner): only the tokens evaluated on this request were
//   counted, the whole prompt could be reused from the cache, and a zero count was dropped by
//   omitempty (issues #2068, #3427: "prompt_eval_count disappears after repeated requests").
//   The 0.4.0 boundary (the Go runner, which always re-evaluates the last prompt token) is our
//   reading of the release history, not a line found in the source.
// - 0.30.0 until PR #16428 (llm: include cached prompt tokens in llama-server counts, merged
//   2026-06-02): llama-server's prompt_n alone, cached tokens excluded. Taken as fixed in 0.30.4,
//   the first release after the merge.
// - from 0.34.0: `prompt_eval_cached_count` (api.Metrics, `*int` with omitempty: present, 0
//   included, whenever the runner reports its cache) — absent in 0.33.2 per issue #8008, in
//   0.34 clients (see the report for the sources).

export interface PromptCountQuirks {
  /** prompt_eval_count leaves out the tokens reused from the cache */
  excludesCached: boolean;
  /** the runner may reuse the whole prompt (else it always evaluates at least the last token) */
  wholePromptCacheable: boolean;
  /** the final chunk carries prompt_eval_cached_count */
  reportsCachedCount: boolean;
}

type Version = [number, number, number];

/** "0.30.2", "v0.34.0-rc1" → [0, 30, 2]; unparsable → undefined (treated as current). */
export function parseVersion(version: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

function before(v: Version, than: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== than[i]) return v[i] < than[i];
  return false;
}

export function promptCountQuirks(version: string): PromptCountQuirks {
  const v = parseVersion(version);
  if (!v) return { excludesCached: false, wholePromptCacheable: false, reportsCachedCount: true };
  if (before(v, [0, 4, 0])) return { excludesCached: true, wholePromptCacheable: true, reportsCachedCount: false };
  const cacheExcluding = !before(v, [0, 30, 0]) && before(v, [0, 30, 4]);
  return { excludesCached: cacheExcluding, wholePromptCacheable: false, reportsCachedCount: !before(v, [0, 34, 0]) };
}

/** Tokens the runner reuses: the common prefix, less the last token where the runner always re-evaluates it. */
export function reusableTokens(promptTokens: number, commonPrefix: number, quirks: PromptCountQuirks): number {
  const cap = quirks.wholePromptCacheable ? promptTokens : Math.max(0, promptTokens - 1);
  return Math.max(0, Math.min(commonPrefix, cap));
}

export interface ReportedPromptCounts {
  /** 0 = left out of the final chunk (omitempty) */
  promptEvalCount: number;
  promptEvalCachedCount?: number;
}

/** The prompt figures the final chunk carries for a prompt of `total` tokens, `cached` of them reused. */
export function reportedPromptCounts(total: number, cached: number, quirks: PromptCountQuirks): ReportedPromptCounts {
  const out: ReportedPromptCounts = { promptEvalCount: quirks.excludesCached ? total - cached : total };
  if (quirks.reportsCachedCount) out.promptEvalCachedCount = cached;
  return out;
}
