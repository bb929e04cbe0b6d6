import type { ProviderErrorInfo } from '../../provider/provider-errors';
import { recoverFromProviderError } from './provider-recovery';

const error = (kind: ProviderErrorInfo['kind']): ProviderErrorInfo => ({ kind, retryable: false, message: kind });

describe('recoverFromProviderError', () => {
  it.each<[string, ProviderErrorInfo['kind'], { recoveriesSoFar: number; toolsEnabled: boolean }, string]>([
    ['tools unsupported: tools off, retry', 'tools_unsupported', { recoveriesSoFar: 0, toolsEnabled: true }, 'disable_tools'],
    [
      'tools unsupported with tools already off: nothing left to drop',
      'tools_unsupported',
      { recoveriesSoFar: 0, toolsEnabled: false },
      'fail',
    ],
    ['context too long: compact, retry', 'context_too_long', { recoveriesSoFar: 0, toolsEnabled: true }, 'compact'],
    [
      'context still too long after compacting once: compact again',
      'context_too_long',
      { recoveriesSoFar: 1, toolsEnabled: true },
      'compact',
    ],
    ['after two recoveries the error stands', 'context_too_long', { recoveriesSoFar: 2, toolsEnabled: true }, 'fail'],
    [
      "a server error is not the loop's to recover (the provider already retried)",
      'server_error',
      { recoveriesSoFar: 0, toolsEnabled: true },
      'fail',
    ],
    ['a missing model fails', 'model_not_found', { recoveriesSoFar: 0, toolsEnabled: true }, 'fail'],
  ])('%s', (_name, kind, state, want) => {
    expect(recoverFromProviderError(error(kind), state)).toBe(want);
  });

  it('corvid summarizes and retries once: a second rejection stands (corvid-agent notes §2.2 step 2)', () => {
    const corvid = { toolsEnabled: true, providerOverflow: 'compact' as const, overflowRetries: 1 };
    expect(recoverFromProviderError(error('context_too_long'), { ...corvid, recoveriesSoFar: 0 })).toBe('compact');
    expect(recoverFromProviderError(error('context_too_long'), { ...corvid, recoveriesSoFar: 1 })).toBe('fail');
  });
});
