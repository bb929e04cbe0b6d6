// The per-request options of a model call in Ollama's wire terms, and how a request's options are
// recorded: as sent, with each sampling option that was not sent marked "default" (the model's and
// Ollama's own value applied), so a record says which ones a trial left alone. Pure.
import type { CompletionRequest } from '../llm-provider';

/** The sampling options a session may set (scenario `config:` keys, `--set` axes), in wire terms; plus the seed. */
export const SAMPLING_OPTION_KEYS = ['seed', 'temperature', 'top_p', 'top_k', 'min_p', 'repeat_penalty'] as const;
export type SamplingOptionKey = (typeof SAMPLING_OPTION_KEYS)[number];

/** The value recorded for an option that was not sent. */
export const DEFAULT_OPTION = 'default';

type RequestOptions = NonNullable<CompletionRequest['options']>;

/** The request's sampling options as Ollama names them; unset ones left out (not sent). */
export function samplingOptions(o: RequestOptions = {}): Partial<Record<SamplingOptionKey, number>> {
  const wire: Record<SamplingOptionKey, number | undefined> = {
    seed: o.seed,
    temperature: o.temperature,
    top_p: o.topP,
    top_k: o.topK,
    min_p: o.minP,
    repeat_penalty: o.repeatPenalty,
  };
  return Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== undefined)) as Partial<Record<SamplingOptionKey, number>>;
}

/** The options as recorded: those sent (undefined ones were not), and "default" for each sampling option not sent. */
export function recordedOptions(sent: Record<string, unknown>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(sent)) if (typeof value === 'number' || typeof value === 'string') out[key] = value;
  for (const key of SAMPLING_OPTION_KEYS) out[key] ??= DEFAULT_OPTION;
  return out;
}
