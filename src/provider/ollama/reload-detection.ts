// Did a reply load its model, and why? Ollama reports the time before the runner was ready as
// load_duration: milliseconds for a loaded model on most versions (0.32.x spends 0.6–0.8 s
// re-reading the model's metadata on every request), seconds for a runner start. A reply at or
// above the threshold — and well above the lowest figure this runner has shown — paid a load.
// The cause is read off what the provider itself sent: other runner options than the last request
// (Loupe changed them), an idle gap longer than the keep_alive it sent, another model loaded on
// the host since (evicted), or none of those (someone else's request, a restart). Pure.
import { sameRunner, type RunnerOptions } from './runner-options';

export type ReloadCause = 'options_changed' | 'keep_alive_expired' | 'evicted' | 'unknown';

/** A warm runner's load figure may vary; a load is this many times the lowest one seen. */
export const WARM_LOAD_FACTOR = 3;

export function replyLoadedModel(input: { loadMs: number | undefined; thresholdMs: number; warmBaselineMs?: number }): boolean {
  const { loadMs, thresholdMs, warmBaselineMs } = input;
  if (loadMs === undefined) return false;
  const limit = Math.max(thresholdMs, warmBaselineMs !== undefined ? warmBaselineMs * WARM_LOAD_FACTOR : 0);
  return loadMs >= limit;
}

export interface ReloadCauseInput {
  /** the runner options of the provider's previous request (or load) for this model */
  previous: RunnerOptions;
  /** the options of the request whose reply reported the load */
  next: RunnerOptions;
  /** ms between the previous request finishing and this one being sent; null when requests were in flight */
  idleMs: number | null;
  /** the keep_alive sent with the previous request, ms; null = forever */
  keepAliveMs: number | null;
  /** another model was loaded on the same host after this model's previous request */
  otherModelLoadedSince: boolean;
}

export function reloadCause(input: ReloadCauseInput): ReloadCause {
  if (!sameRunner(input.previous, input.next)) return 'options_changed';
  if (input.idleMs !== null && input.keepAliveMs !== null && input.idleMs >= input.keepAliveMs) return 'keep_alive_expired';
  if (input.otherModelLoadedSince) return 'evicted';
  return 'unknown';
}
