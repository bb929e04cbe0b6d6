// One completion's attempts: a failed attempt is retried as the request's retry schedule plans it
// (classified error, backoff with jitter, Retry-After), each retry and the final give-up journaled
// through the request's event sink; an abort during a backoff fails as an abort during the stream does.
import type { CompletionRequest, ProviderEventSink } from '../llm-provider';
import { ProviderError, toProviderError } from '../provider-errors';
import { classifyProviderError } from './error-classifier';
import type { RawChatResult } from './ollama-chat-stream';
import { planRetry } from './retry-policy';

export interface RetryOptions {
  /** retry jitter source, [0, 1) like Math.random (the default) */
  random?: () => number;
  /** multiplies retry backoffs (1 = the spec's 1 s, 2 s, 4 s) */
  retryDelayScale?: number;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetries(
  req: Pick<CompletionRequest, 'retrySchedule' | 'signal'>,
  emit: ProviderEventSink,
  opts: RetryOptions,
  attempt: () => Promise<RawChatResult>,
): Promise<RawChatResult> {
  for (let failures = 0; ;) {
    try {
      return await attempt();
    } catch (e) {
      if (!ProviderError.isInstance(e)) throw e;
      failures++;
      const schedule = req.retrySchedule ?? 'loupe';
      const plan = planRetry(e.info, failures, opts.random ?? Math.random, schedule);
      if (!plan.retry) {
        if (plan.reason !== 'not_retryable') {
          emit('inference_retry', {
            attempt: failures,
            schedule,
            giveUp: true,
            reason: plan.reason,
            kind: e.info.kind,
            status: e.info.status ?? null,
            message: e.info.message,
          });
        }
        throw e;
      }
      if (req.signal?.aborted) throw e;
      const delayMs = Math.round(plan.delayMs * (opts.retryDelayScale ?? 1));
      emit('inference_retry', {
        attempt: failures,
        schedule,
        delayMs,
        kind: e.info.kind,
        status: e.info.status ?? null,
        retryAfterMs: e.info.retryAfterMs ?? null,
        message: e.info.message,
      });
      try {
        await abortableSleep(delayMs, req.signal);
      } catch (reason) {
        // the caller aborted during the backoff: fail like an abort during the stream does
        throw toProviderError(classifyProviderError(reason, { abortReason: reason }), reason);
      }
    }
  }
}
