import { classifyProviderError } from './error-classifier';
import type { ClassifyContext } from './error-classifier';
import { ContextTooLongError, ProviderError } from '../provider-errors';
import type { ProviderErrorInfo } from '../provider-errors';

// the shape ollama-js throws for non-2xx responses (the class itself is not exported)
class ResponseError extends Error {
  constructor(
    readonly error: string,
    readonly status_code: number,
  ) {
    super(error);
    this.name = 'ResponseError';
  }
}

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const fetchFailed = (cause: unknown): TypeError => new TypeError('fetch failed', { cause });
const domError = (message: string, name: string): Error => Object.assign(new Error(message), { name });

type Row = { name: string; error: unknown; context?: ClassifyContext; expected: ProviderErrorInfo };

const rows: Row[] = [
  // HTTP status first
  {
    name: '503 queue overflow is server_busy and retryable',
    error: new ResponseError('server busy, please try again.  maximum pending requests exceeded', 503),
    expected: {
      kind: 'server_busy',
      retryable: true,
      status: 503,
      message: 'server busy, please try again.  maximum pending requests exceeded',
    },
  },
  {
    name: '503 carries a Retry-After in seconds',
    error: new ResponseError('busy', 503),
    context: { retryAfter: '7' },
    expected: { kind: 'server_busy', retryable: true, status: 503, retryAfterMs: 7_000, message: 'busy' },
  },
  {
    name: '429 is rate_limited with an HTTP-date Retry-After',
    error: new ResponseError('too many requests', 429),
    context: { retryAfter: 'Wed, 21 Oct 2026 07:28:30 GMT', now: Date.parse('Wed, 21 Oct 2026 07:28:00 GMT') },
    expected: { kind: 'rate_limited', retryable: true, status: 429, retryAfterMs: 30_000, message: 'too many requests' },
  },
  {
    name: '404 is model_not_found and permanent',
    error: new ResponseError("model 'llama9' not found", 404),
    expected: { kind: 'model_not_found', retryable: false, status: 404, message: "model 'llama9' not found" },
  },
  {
    name: '404 from the scheduler path is model_not_found too',
    error: new ResponseError('model "llama9" not found, try pulling it first', 404),
    expected: { kind: 'model_not_found', retryable: false, status: 404, message: 'model "llama9" not found, try pulling it first' },
  },
  {
    name: 'a 404 page (wrong host or path) is a bad request, not a missing model',
    error: new ResponseError('404 page not found', 404),
    expected: { kind: 'bad_request', retryable: false, status: 404, message: '404 page not found' },
  },
  {
    name: '400 without a known cause is bad_request',
    error: new ResponseError('invalid model name', 400),
    expected: { kind: 'bad_request', retryable: false, status: 400, message: 'invalid model name' },
  },
  {
    name: '400 "does not support tools" is tools_unsupported',
    error: new ResponseError('registry.ollama.ai/library/gemma:2b does not support tools', 400),
    expected: {
      kind: 'tools_unsupported',
      retryable: false,
      status: 400,
      message: 'registry.ollama.ai/library/gemma:2b does not support tools',
    },
  },
  {
    name: '400 "does not support thinking" is thinking_unsupported',
    error: new ResponseError('"qwen2:0.5b" does not support thinking', 400),
    expected: { kind: 'thinking_unsupported', retryable: false, status: 400, message: '"qwen2:0.5b" does not support thinking' },
  },
  {
    name: '400 about the context length is context_too_long',
    error: new ResponseError('input length exceeds the context length', 400),
    expected: { kind: 'context_too_long', retryable: false, status: 400, message: 'input length exceeds the context length' },
  },
  {
    name: '413 is context_too_long',
    error: new ResponseError('request entity too large', 413),
    expected: { kind: 'context_too_long', retryable: false, status: 413, message: 'request entity too large' },
  },
  {
    name: '401 from a signed-out cloud model is unauthorized',
    error: new ResponseError('unauthorized', 401),
    expected: { kind: 'unauthorized', retryable: false, status: 401, message: 'unauthorized' },
  },
  {
    name: '403 with cloud disabled is unauthorized',
    error: new ResponseError('ollama cloud is disabled: remote model is unavailable', 403),
    expected: { kind: 'unauthorized', retryable: false, status: 403, message: 'ollama cloud is disabled: remote model is unavailable' },
  },
  {
    name: '500 with an out-of-memory load failure is out_of_memory and retryable',
    error: new ResponseError('model requires more system memory (12.1 GiB) than is available (8.0 GiB)', 500),
    expected: {
      kind: 'out_of_memory',
      retryable: true,
      status: 500,
      message: 'model requires more system memory (12.1 GiB) than is available (8.0 GiB)',
    },
  },
  {
    name: '500 from a crashed runner is a retryable server_error',
    error: new ResponseError('llama runner process has terminated: exit status 2', 500),
    expected: { kind: 'server_error', retryable: true, status: 500, message: 'llama runner process has terminated: exit status 2' },
  },
  {
    name: '500 from an option of the wrong type is permanent',
    error: new ResponseError('option "num_ctx" must be of type integer', 500),
    expected: { kind: 'bad_request', retryable: false, status: 500, message: 'option "num_ctx" must be of type integer' },
  },
  {
    name: '502 from an unreachable cloud upstream is a retryable server_error',
    error: new ResponseError('dial tcp: lookup ollama.com: no such host', 502),
    expected: { kind: 'server_error', retryable: true, status: 502, message: 'dial tcp: lookup ollama.com: no such host' },
  },
  {
    name: '499 is an abort',
    error: new ResponseError('request canceled', 499),
    expected: { kind: 'aborted', retryable: false, status: 499, message: 'request canceled' },
  },
  // error codes on the cause chain
  {
    name: 'fetch failed with ECONNREFUSED is a retryable connection error',
    error: fetchFailed(withCode('connect ECONNREFUSED 127.0.0.1:11434', 'ECONNREFUSED')),
    expected: { kind: 'connection', retryable: true, code: 'ECONNREFUSED', message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:11434' },
  },
  {
    name: 'a dual-stack refusal (AggregateError) is found through its members',
    error: fetchFailed(new AggregateError([withCode('connect ECONNREFUSED ::1:11434', 'ECONNREFUSED')], '')),
    expected: { kind: 'connection', retryable: true, code: 'ECONNREFUSED', message: 'fetch failed: AggregateError' },
  },
  {
    name: 'ECONNRESET is retryable',
    error: withCode('read ECONNRESET', 'ECONNRESET'),
    expected: { kind: 'connection', retryable: true, code: 'ECONNRESET', message: 'read ECONNRESET' },
  },
  {
    name: 'EPIPE is retryable',
    error: withCode('write EPIPE', 'EPIPE'),
    expected: { kind: 'connection', retryable: true, code: 'EPIPE', message: 'write EPIPE' },
  },
  {
    name: 'an unknown host is a permanent connection error',
    error: fetchFailed(withCode('getaddrinfo ENOTFOUND gpu-server', 'ENOTFOUND')),
    expected: { kind: 'connection', retryable: false, code: 'ENOTFOUND', message: 'fetch failed: getaddrinfo ENOTFOUND gpu-server' },
  },
  {
    name: 'undici socket closed before the response is a retryable connection error',
    error: fetchFailed(withCode('other side closed', 'UND_ERR_SOCKET')),
    expected: { kind: 'connection', retryable: true, code: 'UND_ERR_SOCKET', message: 'fetch failed: other side closed' },
  },
  {
    name: 'undici socket closed mid-body is a stream_error',
    error: new TypeError('terminated', { cause: withCode('other side closed', 'UND_ERR_SOCKET') }),
    context: { midStream: true },
    expected: { kind: 'stream_error', retryable: true, code: 'UND_ERR_SOCKET', message: 'terminated: other side closed' },
  },
  {
    name: "undici's headers timeout is a first-byte timeout",
    error: fetchFailed(withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT')),
    expected: {
      kind: 'timeout_first_byte',
      retryable: true,
      code: 'UND_ERR_HEADERS_TIMEOUT',
      message: 'fetch failed: Headers Timeout Error',
    },
  },
  {
    name: "undici's body timeout is an idle timeout",
    error: new TypeError('terminated', { cause: withCode('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT') }),
    expected: { kind: 'timeout_idle', retryable: true, code: 'UND_ERR_BODY_TIMEOUT', message: 'terminated: Body Timeout Error' },
  },
  {
    name: 'fetch failed without a code is still a retryable connection error',
    error: new TypeError('fetch failed'),
    expected: { kind: 'connection', retryable: true, message: 'fetch failed' },
  },
  {
    name: 'a blocked port is a permanent connection error',
    error: fetchFailed(new Error('bad port')),
    expected: { kind: 'connection', retryable: false, message: 'fetch failed: bad port' },
  },
  // aborts and timeouts
  {
    name: 'a plain AbortError is an abort, never retried',
    error: domError('This operation was aborted', 'AbortError'),
    expected: { kind: 'aborted', retryable: false, message: 'This operation was aborted' },
  },
  {
    name: 'AbortSignal.timeout is a request timeout',
    error: domError('The operation was aborted due to timeout', 'TimeoutError'),
    expected: { kind: 'timeout_request', retryable: false, message: 'The operation was aborted due to timeout' },
  },
  {
    name: 'an AbortError caused by our idle timeout takes the reason from the signal',
    error: domError('This operation was aborted', 'AbortError'),
    context: { abortReason: new ProviderError({ kind: 'timeout_idle', retryable: true, message: 'no data for 120000 ms' }) },
    expected: { kind: 'timeout_idle', retryable: true, message: 'no data for 120000 ms' },
  },
  {
    name: 'a caller abort with a custom reason is an abort whatever was thrown',
    error: new Error('stop please'),
    context: { abortReason: new Error('stop please') },
    expected: { kind: 'aborted', retryable: false, message: 'stop please' },
  },
  {
    name: 'a timeout reason on the signal is a request timeout',
    error: domError('This operation was aborted', 'AbortError'),
    context: { abortReason: domError('The operation was aborted due to timeout', 'TimeoutError') },
    expected: { kind: 'timeout_request', retryable: false, message: 'The operation was aborted due to timeout' },
  },
  // text fallback for status-less errors (mid-stream {"error"} lines)
  {
    name: 'a mid-stream model error is a retryable stream_error',
    error: new Error('an error was encountered while running the model'),
    context: { midStream: true },
    expected: { kind: 'stream_error', retryable: true, message: 'an error was encountered while running the model' },
  },
  {
    name: 'a stream that ended without done is a stream_error',
    error: new Error('Did not receive done or success response in stream.'),
    expected: { kind: 'stream_error', retryable: true, message: 'Did not receive done or success response in stream.' },
  },
  {
    name: 'a mid-stream CUDA out-of-memory is out_of_memory',
    error: new Error('CUDA error: out of memory'),
    context: { midStream: true },
    expected: { kind: 'out_of_memory', retryable: true, message: 'CUDA error: out of memory' },
  },
  {
    name: 'a cloud proxy timeout in the text is retryable',
    error: new Error('Request timed out after 90 seconds'),
    expected: { kind: 'server_error', retryable: true, message: 'Request timed out after 90 seconds' },
  },
  {
    name: 'a pull error for an unknown model is model_not_found',
    error: new Error("model 'nope' not found"),
    expected: { kind: 'model_not_found', retryable: false, message: "model 'nope' not found" },
  },
  {
    name: 'an unrecognised error outside a stream is unknown and not retried',
    error: new SyntaxError('Unexpected token { in JSON at position 57'),
    expected: { kind: 'unknown', retryable: false, message: 'Unexpected token { in JSON at position 57' },
  },
  { name: 'a thrown string is unknown', error: 'boom', expected: { kind: 'unknown', retryable: false, message: 'boom' } },
  { name: 'undefined is unknown', error: undefined, expected: { kind: 'unknown', retryable: false, message: 'undefined' } },
];

describe('classifyProviderError', () => {
  it.each(rows)('$name', ({ error, context, expected }) => {
    const info = classifyProviderError(error, context);
    expect(info).toEqual(expected);
    // serialisable: survives a JSON round trip unchanged
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });

  it('returns the info of a ProviderError as is', () => {
    const info: ProviderErrorInfo = { kind: 'context_too_long', retryable: false, status: 400, message: 'too long' };
    expect(classifyProviderError(new ContextTooLongError(info))).toBe(info);
  });

  it('survives a cyclic cause chain', () => {
    const error = withCode('loop', 'ESOMETHING') as Error & { cause?: unknown };
    error.cause = error;
    expect(classifyProviderError(error)).toEqual({ kind: 'unknown', retryable: false, message: 'loop' });
  });
});
