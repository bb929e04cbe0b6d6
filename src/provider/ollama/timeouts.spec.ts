import { classifyProviderError } from './error-classifier';
import { ProviderError } from '../provider-errors';
import { CLOUD_STREAM_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS, STREAM_IDLE_TIMEOUT_MS, idleTimeoutFor, timeoutError } from './timeouts';

describe('timeout budgets', () => {
  it('uses 2 min idle, 100 s idle for cloud and 30 min per request', () => {
    expect([STREAM_IDLE_TIMEOUT_MS, CLOUD_STREAM_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS]).toEqual([120_000, 100_000, 1_800_000]);
  });

  it.each([
    ['qwen3:8b', 120_000],
    ['gpt-oss:120b-cloud', 100_000],
  ])('idle timeout for %p is %p ms', (model, ms) => {
    expect(idleTimeoutFor(model)).toBe(ms);
  });
});

describe('timeoutError', () => {
  it.each([
    {
      kind: 'timeout_idle' as const,
      context: { model: 'qwen3:8b', chunks: 37 },
      expected: {
        kind: 'timeout_idle',
        retryable: true,
        message: 'Stream aborted: no stream data from Ollama for 120000 ms (model qwen3:8b, after 37 chunks)',
      },
    },
    {
      kind: 'timeout_first_byte' as const,
      context: { model: 'llama3.3:70b' },
      expected: {
        kind: 'timeout_first_byte',
        retryable: true,
        message: 'Stream aborted: no response headers from Ollama for 120000 ms (model llama3.3:70b)',
      },
    },
    {
      kind: 'timeout_request' as const,
      context: undefined,
      expected: { kind: 'timeout_request', retryable: false, message: 'Stream aborted: request still running for 120000 ms' },
    },
  ])('builds a $kind error that classifies as itself when used as the abort reason', ({ kind, context, expected }) => {
    const error = timeoutError(kind, 120_000, context);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.info).toEqual(expected);
    const thrown = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    expect(classifyProviderError(thrown, { abortReason: error })).toEqual(expected);
  });
});
