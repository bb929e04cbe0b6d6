import type { ProviderErrorInfo } from '../provider-errors';
import { MAX_RETRIES, backoffDelayMs, parseRetryAfter, planRetry, shouldRetry } from './retry-policy';

const NOW = Date.parse('2026-10-21T07:28:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 2 ', 2_000],
    ['1.5', 1_500],
    ['0', 0],
    ['Wed, 21 Oct 2026 07:28:30 GMT', 30_000],
    ['Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['-1', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%p → %p ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe('backoffDelayMs', () => {
  it.each([
    { name: 'waits 1 s before the first retry', attempt: 1, random: 0, retryAfterMs: undefined, expected: 1_000 },
    { name: 'waits 2 s before the second retry', attempt: 2, random: 0, retryAfterMs: undefined, expected: 2_000 },
    { name: 'waits 4 s before the third retry', attempt: 3, random: 0, retryAfterMs: undefined, expected: 4_000 },
    { name: 'adds up to 500 ms of jitter', attempt: 1, random: 0.9999999, retryAfterMs: undefined, expected: 1_500 },
    { name: 'scales the jitter with random()', attempt: 2, random: 0.5, retryAfterMs: undefined, expected: 2_250 },
    { name: 'honours a longer Retry-After', attempt: 1, random: 0.5, retryAfterMs: 10_000, expected: 10_000 },
    { name: 'ignores a shorter Retry-After', attempt: 3, random: 0, retryAfterMs: 1_000, expected: 4_000 },
    { name: 'caps a huge Retry-After', attempt: 1, random: 0, retryAfterMs: 3_600_000, expected: 60_000 },
    { name: 'caps runaway exponents', attempt: 20, random: 0, retryAfterMs: undefined, expected: 60_000 },
    { name: 'treats attempt 0 like the first retry', attempt: 0, random: 0, retryAfterMs: undefined, expected: 1_000 },
  ])('$name', ({ attempt, random, retryAfterMs, expected }) => {
    expect(backoffDelayMs(attempt, { retryAfterMs, random: () => random })).toBe(expected);
  });
});

const err = (kind: ProviderErrorInfo['kind'], retryable: boolean, extra: Partial<ProviderErrorInfo> = {}): ProviderErrorInfo => ({
  kind,
  retryable,
  message: kind,
  ...extra,
});

describe('shouldRetry', () => {
  it.each([
    { name: 'retries a 503 on the first attempt', info: err('server_busy', true), attempt: 1, expected: true },
    { name: 'retries up to MAX_RETRIES', info: err('connection', true), attempt: MAX_RETRIES, expected: true },
    { name: 'stops after MAX_RETRIES', info: err('connection', true), attempt: MAX_RETRIES + 1, expected: false },
    { name: 'never retries a permanent error', info: err('model_not_found', false), attempt: 1, expected: false },
    { name: 'never retries an abort even if flagged retryable', info: err('aborted', true), attempt: 1, expected: false },
    { name: 'never retries context_too_long even if flagged retryable', info: err('context_too_long', true), attempt: 1, expected: false },
    {
      name: 'fails fast when Retry-After exceeds what we would wait',
      info: err('rate_limited', true, { retryAfterMs: 120_000 }),
      attempt: 1,
      expected: false,
    },
  ])('$name', ({ info, attempt, expected }) => {
    expect(shouldRetry(info, attempt)).toBe(expected);
  });
});

describe('planRetry', () => {
  it('plans the 503 spec scenario: three retries at 1 s, 2 s, 4 s plus jitter, then gives up', () => {
    const info = err('server_busy', true, { status: 503 });
    const plans = [1, 2, 3, 4].map((attempt) => planRetry(info, attempt, () => 0.2));
    expect(plans).toEqual([
      { retry: true, attempt: 1, delayMs: 1_100 },
      { retry: true, attempt: 2, delayMs: 2_100 },
      { retry: true, attempt: 3, delayMs: 4_100 },
      { retry: false, attempt: 4, reason: 'exhausted' },
    ]);
  });

  it.each([
    { info: err('bad_request', false), expected: { retry: false, attempt: 1, reason: 'not_retryable' } },
    { info: err('rate_limited', true, { retryAfterMs: 90_000 }), expected: { retry: false, attempt: 1, reason: 'retry_after_too_long' } },
    { info: err('rate_limited', true, { retryAfterMs: 5_000 }), expected: { retry: true, attempt: 1, delayMs: 5_000 } },
  ])('plans $info.kind → $expected.retry', ({ info, expected }) => {
    expect(planRetry(info, 1, () => 0)).toEqual(expected);
  });
});
