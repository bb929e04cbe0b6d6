import type { ProviderErrorInfo } from '../provider-errors';
import { planRetry } from './retry-policy';
import { planRetryUnder, RETRY_SCHEDULES, RETRY_SCHEDULE_NAMES } from './retry-schedules';

const OOM: ProviderErrorInfo = { kind: 'out_of_memory', retryable: true, status: 500, message: 'unable to load full model on GPU' };
const BUSY: ProviderErrorInfo = { kind: 'server_busy', retryable: true, status: 503, message: 'server busy' };
const zero = () => 0;
const retriesUntilGiveUp = (name: (typeof RETRY_SCHEDULE_NAMES)[number], info: ProviderErrorInfo): boolean[] =>
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((attempt) => planRetryUnder(RETRY_SCHEDULES[name], info, attempt, zero).retry);

describe("out-of-memory loads: Loupe's schedule retries them once; the other profiles' schedules keep their systems' counts", () => {
  it('loupe: one retry, then exhausted', () => {
    expect(RETRY_SCHEDULES.loupe.kindCaps?.out_of_memory).toBe(1);
    expect(retriesUntilGiveUp('loupe', OOM).filter(Boolean)).toHaveLength(1);
    expect(planRetryUnder(RETRY_SCHEDULES.loupe, OOM, 2, zero)).toEqual({ retry: false, attempt: 2, reason: 'exhausted' });
  });

  // ollama-provider.spec.md invariant 12 (corvid: OOM retried with the 3-step schedule), dexto's 2,
  // gemini-cli's 9 for any 5xx: a profile reproduces its system, whatever Loupe itself would do
  it.each([
    ['corvid', 3],
    ['dexto', 2],
    ['gemini-cli', 9],
  ] as const)('%s: %i retries, as its system does', (name, n) => {
    expect(retriesUntilGiveUp(name, OOM).filter(Boolean)).toHaveLength(n);
  });

  it.each(['opencode', 'none'] as const)('%s: a schedule that never retried it still does not', (name) => {
    expect(planRetryUnder(RETRY_SCHEDULES[name], OOM, 1, zero)).toEqual({ retry: false, attempt: 1, reason: 'not_retryable' });
  });

  it("the one retry waits the schedule's first backoff (loupe: 1 s)", () => {
    expect(planRetry(OOM, 1, zero)).toEqual({ retry: true, attempt: 1, delayMs: 1_000 });
  });

  it('other kinds keep their schedule counts', () => {
    expect(retriesUntilGiveUp('loupe', BUSY).filter(Boolean)).toHaveLength(3);
    expect(retriesUntilGiveUp('gemini-cli', BUSY).filter(Boolean)).toHaveLength(9);
    expect(retriesUntilGiveUp('loupe', { ...OOM, kind: 'server_error' }).filter(Boolean)).toHaveLength(3);
  });
});
