// Timeout budgets of one inference (spec invariants 7 and 11) and the errors to abort with when
// one expires. Aborting a request's controller with one of these errors as the reason lets
// classifyProviderError tell our own timeouts from the caller's abort.

import { ProviderError } from '../provider-errors';
import { isCloudModel } from './model-name';

/** no stream data for this long: abort (spec invariant 7) */
export const STREAM_IDLE_TIMEOUT_MS = 120_000;
/** cloud proxies cut idle connections at about 90 s; give up just after that instead */
export const CLOUD_STREAM_IDLE_TIMEOUT_MS = 100_000;
/** whole request, OLLAMA_REQUEST_TIMEOUT (spec invariant 11) */
export const REQUEST_TIMEOUT_MS = 30 * 60_000;

export type TimeoutKind = 'timeout_first_byte' | 'timeout_idle' | 'timeout_request';

export function idleTimeoutFor(model: string): number {
  return isCloudModel(model) ? CLOUD_STREAM_IDLE_TIMEOUT_MS : STREAM_IDLE_TIMEOUT_MS;
}

const DESCRIPTION: Record<TimeoutKind, string> = {
  timeout_first_byte: 'no response headers from Ollama',
  timeout_idle: 'no stream data from Ollama',
  timeout_request: 'request still running',
};

/**
 * A diagnostic timeout error, e.g. "Stream aborted: no stream data from Ollama for 120000 ms
 * (model qwen3:8b, after 37 chunks)". First-byte and idle timeouts are retryable (the model may
 * have been loading or stalled); the whole-request timeout is not, it would only burn another
 * full budget.
 */
export function timeoutError(kind: TimeoutKind, ms: number, context: { model?: string; chunks?: number } = {}): ProviderError {
  const details = [context.model && `model ${context.model}`, context.chunks !== undefined && `after ${context.chunks} chunks`].filter(
    Boolean,
  );
  const suffix = details.length > 0 ? ` (${details.join(', ')})` : '';
  return new ProviderError({
    kind,
    retryable: kind !== 'timeout_request',
    message: `Stream aborted: ${DESCRIPTION[kind]} for ${ms} ms${suffix}`,
  });
}
