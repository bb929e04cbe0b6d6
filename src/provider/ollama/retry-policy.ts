// When and how long to wait before retrying a failed inference. Decided from the classified
// ProviderErrorInfo only, never from message substrings.

import type { ProviderErrorInfo } from '../provider-errors';
import { planRetryUnder, RETRY_SCHEDULES, type RetryPlan, type RetryScheduleName } from './retry-schedules';

export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 1_000;
export const MAX_JITTER_MS = 500;
/** longest pause we accept, Retry-After included; a server asking for more fails fast instead */
export const MAX_RETRY_DELAY_MS = 60_000;

/**
 * Retry-After is either delay-seconds ("120") or an HTTP date. Returns milliseconds from `now`
 * (never negative), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1_000);
  // HTTP dates always name a weekday or month; Date.parse alone would accept "5" or "-1"
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface BackoffOptions {
  retryAfterMs?: number;
  /** [0, 1) like Math.random; injected so tests are deterministic */
  random: () => number;
}

/**
 * attempt is 1-based (the first retry is 1): 1000, 2000, 4000 ms plus 0–500 ms jitter, or the
 * server's Retry-After when that is longer, capped at MAX_RETRY_DELAY_MS.
 */
export function backoffDelayMs(attempt: number, { retryAfterMs, random }: BackoffOptions): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const jitter = Math.floor(Math.min(Math.max(random(), 0), 0.999999) * (MAX_JITTER_MS + 1));
  const backoff = BASE_DELAY_MS * 2 ** exponent + jitter;
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(backoff, retryAfterMs ?? 0));
}

/** attempt: the 1-based number of the retry being considered (= failures so far). */
export function shouldRetry(info: ProviderErrorInfo, attempt: number): boolean {
  return retryRefusal(info, attempt) === undefined;
}

export type { RetryPlan } from './retry-schedules';

/** shouldRetry and backoffDelayMs in one call (the default, Loupe schedule), with the reason when not retrying. */
export function planRetry(
  info: ProviderErrorInfo,
  attempt: number,
  random: () => number,
  schedule: RetryScheduleName = 'loupe',
): RetryPlan {
  return planRetryUnder(RETRY_SCHEDULES[schedule], info, attempt, random);
}

function retryRefusal(info: ProviderErrorInfo, attempt: number): 'not_retryable' | 'exhausted' | 'retry_after_too_long' | undefined {
  const plan = planRetryUnder(RETRY_SCHEDULES.loupe, info, attempt, () => 0);
  return plan.retry ? undefined : plan.reason;
}
