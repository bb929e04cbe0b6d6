// The retry schedules of the loop profiles: which failed requests each system retries, how often,
// and how long it waits. Pure; the provider applies the one its caller names. A schedule never
// retries an abort or a context-length error, and retries an out-of-memory load at most once,
// whatever it says.
import type { ProviderErrorInfo, ProviderErrorKind } from '../provider-errors';

export const RETRY_SCHEDULE_NAMES = ['loupe', 'corvid', 'opencode', 'dexto', 'gemini-cli', 'none'] as const;
export type RetryScheduleName = (typeof RETRY_SCHEDULE_NAMES)[number];

export interface RetrySchedule {
  name: RetryScheduleName;
  maxRetries: number;
  /** whether this schedule retries the error at all */
  retries(info: ProviderErrorInfo): boolean;
  /** the pause before retry `attempt` (1-based), before any Retry-After; random is [0, 1) */
  delayMs(attempt: number, random: () => number): number;
  /** how a server's Retry-After counts: the longer of it and the backoff, in place of the backoff, or not at all */
  retryAfter: 'max' | 'replace' | 'ignore';
  maxDelayMs: number;
  /** a Retry-After above maxDelayMs: give up at once (a server asking for minutes will not be ready sooner), or wait maxDelayMs */
  retryAfterAboveMax: 'give_up' | 'cap';
  /** retries a kind gets, below maxRetries (absent: maxRetries) */
  kindCaps?: Readonly<Partial<Record<ProviderErrorKind, number>>>;
}

const exponential = (base: number, attempt: number) => base * 2 ** Math.max(0, Math.floor(attempt) - 1);
const unit = (random: () => number) => Math.min(Math.max(random(), 0), 0.999999);

/** ollama-provider.spec.md invariant 12: 1 s, 2 s, 4 s plus jitter; the classifier decides what is transient. */
const SPEC_RETRIES = 3;
const SPEC_BASE_MS = 1_000;
const SPEC_MAX_JITTER_MS = 500;
const specDelay = (attempt: number, random: () => number) =>
  exponential(SPEC_BASE_MS, attempt) + Math.floor(unit(random) * (SPEC_MAX_JITTER_MS + 1));

/** stream-processor-deep-dive.md SessionRetry.retryable: rate limit, overloaded, timeout, network. */
const OPENCODE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limited',
  'server_busy',
  'timeout_first_byte',
  'timeout_idle',
  'timeout_request',
  'connection',
  'stream_error',
]);

/** loop-control-prior-art.md §2 (gemini-cli utils/retry.ts): network errors, 429, 499, 5xx; never 400. */
const GEMINI_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'connection',
  'timeout_first_byte',
  'timeout_idle',
  'timeout_request',
  'stream_error',
  'rate_limited',
  'server_busy',
  'out_of_memory',
  'server_error',
]);
const GEMINI_JITTER = 0.3;

/**
 * Loupe's own schedule retries a kind fewer times than its count. A load that did not fit may
 * fit once another model is evicted, but waiting longer does not help: Ollama's scheduler has already
 * retried it with a smaller context.
 */
const LOUPE_KIND_CAPS: Readonly<Partial<Record<ProviderErrorKind, number>>> = { out_of_memory: 1 };

export const RETRY_SCHEDULES: Readonly<Record<RetryScheduleName, RetrySchedule>> = {
  // the spec's schedule, and a server's longer Retry-After honoured up to a minute
  loupe: {
    name: 'loupe',
    maxRetries: SPEC_RETRIES,
    retries: (i) => i.retryable,
    delayMs: specDelay,
    retryAfter: 'max',
    maxDelayMs: 60_000,
    retryAfterAboveMax: 'give_up',
    kindCaps: LOUPE_KIND_CAPS,
  },
  // corvid-agent's code: 1000·2^attempt + rand(0–500) ms, Retry-After not read
  corvid: {
    name: 'corvid',
    maxRetries: SPEC_RETRIES,
    retries: (i) => i.retryable,
    delayMs: specDelay,
    retryAfter: 'ignore',
    maxDelayMs: 60_000,
    retryAfterAboveMax: 'cap',
  },
  // base 2000 doubling, max 60000, retry-after replaces the delay; the Python equivalent stops at attempt 5
  opencode: {
    name: 'opencode',
    maxRetries: 5,
    retries: (i) => OPENCODE_KINDS.has(i.kind),
    delayMs: (a) => exponential(2_000, a),
    retryAfter: 'replace',
    maxDelayMs: 60_000,
    retryAfterAboveMax: 'cap',
  },
  // MODEL_REQUEST_MAX_RETRIES = 2, when the error is retryable; no delay or backoff
  dexto: {
    name: 'dexto',
    maxRetries: 2,
    retries: (i) => i.retryable,
    delayMs: () => 0,
    retryAfter: 'ignore',
    maxDelayMs: 0,
    retryAfterAboveMax: 'cap',
  },
  // 10 attempts, 5 s rising to 30 s, ±30% jitter; the server delay comes from RetryInfo, which Ollama never sends
  'gemini-cli': {
    name: 'gemini-cli',
    maxRetries: 9,
    retries: (i) => GEMINI_KINDS.has(i.kind) || i.status === 429 || i.status === 499 || (i.status !== undefined && i.status >= 500),
    delayMs: (a, random) => Math.round(Math.min(30_000, exponential(5_000, a)) * (1 + (unit(random) * 2 - 1) * GEMINI_JITTER)),
    retryAfter: 'ignore',
    maxDelayMs: 39_000,
    retryAfterAboveMax: 'cap',
  },
  none: {
    name: 'none',
    maxRetries: 0,
    retries: () => false,
    delayMs: () => 0,
    retryAfter: 'ignore',
    maxDelayMs: 0,
    retryAfterAboveMax: 'cap',
  },
};

export type RetryPlan =
  | { retry: true; attempt: number; delayMs: number }
  | { retry: false; attempt: number; reason: 'not_retryable' | 'exhausted' | 'retry_after_too_long' };

/** Whether and when to retry after the `attempt`-th failure (1-based), under a schedule. */
export function planRetryUnder(schedule: RetrySchedule, info: ProviderErrorInfo, attempt: number, random: () => number): RetryPlan {
  if (info.kind === 'aborted' || info.kind === 'context_too_long' || !schedule.retries(info))
    return { retry: false, attempt, reason: 'not_retryable' };
  if (attempt > Math.min(schedule.maxRetries, schedule.kindCaps?.[info.kind] ?? Infinity))
    return { retry: false, attempt, reason: 'exhausted' };
  const backoff = Math.min(schedule.delayMs(attempt, random), Math.max(schedule.maxDelayMs, 0) || Infinity);
  const asked = schedule.retryAfter === 'ignore' ? undefined : info.retryAfterMs;
  if (asked === undefined) return { retry: true, attempt, delayMs: backoff };
  if (asked > schedule.maxDelayMs) {
    if (schedule.retryAfterAboveMax === 'give_up') return { retry: false, attempt, reason: 'retry_after_too_long' };
    return { retry: true, attempt, delayMs: schedule.maxDelayMs };
  }
  return { retry: true, attempt, delayMs: schedule.retryAfter === 'replace' ? asked : Math.max(backoff, asked) };
}
