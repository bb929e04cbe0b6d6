import type { ProviderErrorInfo } from '../provider-errors';
import { planRetryUnder, RETRY_SCHEDULES } from './retry-schedules';

const err = (kind: ProviderErrorInfo['kind'], retryable: boolean, extra: Partial<ProviderErrorInfo> = {}): ProviderErrorInfo => ({
  kind,
  retryable,
  message: kind,
  ...extra,
});
const zero = () => 0;
const plan = (name: keyof typeof RETRY_SCHEDULES, info: ProviderErrorInfo, attempt: number, random = zero) =>
  planRetryUnder(RETRY_SCHEDULES[name], info, attempt, random);

describe('retry schedules', () => {
  it("loupe: the spec's 1/2/4 s, a longer Retry-After honoured, one over a minute refused", () => {
    expect([1, 2, 3].map((a) => plan('loupe', err('server_busy', true), a))).toEqual(
      [1_000, 2_000, 4_000].map((delayMs, i) => ({ retry: true, attempt: i + 1, delayMs })),
    );
    expect(plan('loupe', err('rate_limited', true, { retryAfterMs: 10_000 }), 1)).toEqual({ retry: true, attempt: 1, delayMs: 10_000 });
    expect(plan('loupe', err('rate_limited', true, { retryAfterMs: 120_000 }), 1)).toEqual({
      retry: false,
      attempt: 1,
      reason: 'retry_after_too_long',
    });
    expect(plan('loupe', err('server_busy', true), 4)).toEqual({ retry: false, attempt: 4, reason: 'exhausted' });
  });

  it('corvid: the same backoff, Retry-After not read', () => {
    expect(plan('corvid', err('rate_limited', true, { retryAfterMs: 10_000 }), 1, () => 0.5)).toEqual({
      retry: true,
      attempt: 1,
      delayMs: 1_250,
    });
  });

  it('opencode: only rate limits, overload, timeouts and network errors; 2 s doubling to 60 s; Retry-After replaces', () => {
    expect(plan('opencode', err('server_busy', true), 1)).toEqual({ retry: true, attempt: 1, delayMs: 2_000 });
    expect(plan('opencode', err('connection', true), 5)).toEqual({ retry: true, attempt: 5, delayMs: 32_000 });
    expect(plan('opencode', err('connection', true), 6)).toEqual({ retry: false, attempt: 6, reason: 'exhausted' });
    expect(plan('opencode', err('server_error', true, { status: 500 }), 1)).toEqual({ retry: false, attempt: 1, reason: 'not_retryable' });
    expect(plan('opencode', err('rate_limited', true, { retryAfterMs: 1_000 }), 1)).toEqual({ retry: true, attempt: 1, delayMs: 1_000 });
    expect(plan('opencode', err('rate_limited', true, { retryAfterMs: 600_000 }), 1)).toEqual({ retry: true, attempt: 1, delayMs: 60_000 });
  });

  it('dexto: two immediate retries', () => {
    expect([1, 2, 3].map((a) => plan('dexto', err('server_busy', true), a).retry)).toEqual([true, true, false]);
    expect(plan('dexto', err('server_busy', true), 1)).toEqual({ retry: true, attempt: 1, delayMs: 0 });
  });

  it('gemini-cli: 5xx included, never 400; 5 s doubling to 30 s with ±30% jitter; 9 retries', () => {
    expect(plan('gemini-cli', err('server_error', true, { status: 500 }), 1, () => 0.5)).toEqual({
      retry: true,
      attempt: 1,
      delayMs: 5_000,
    });
    expect(plan('gemini-cli', err('server_error', true, { status: 500 }), 1, () => 0)).toEqual({ retry: true, attempt: 1, delayMs: 3_500 });
    expect(plan('gemini-cli', err('server_busy', true), 4, () => 0.999999)).toEqual({ retry: true, attempt: 4, delayMs: 39_000 });
    expect(plan('gemini-cli', err('unknown', false, { status: 499 }), 1, () => 0.5).retry).toBe(true);
    expect(plan('gemini-cli', err('bad_request', false, { status: 400 }), 1).retry).toBe(false);
    expect(plan('gemini-cli', err('server_busy', true), 10).retry).toBe(false);
  });

  it('none: nothing is retried; no schedule retries an abort or a context overflow', () => {
    expect(plan('none', err('server_busy', true), 1)).toEqual({ retry: false, attempt: 1, reason: 'not_retryable' });
    for (const name of Object.keys(RETRY_SCHEDULES) as Array<keyof typeof RETRY_SCHEDULES>) {
      expect(plan(name, err('aborted', true), 1).retry).toBe(false);
      expect(plan(name, err('context_too_long', true), 1).retry).toBe(false);
    }
  });
});
