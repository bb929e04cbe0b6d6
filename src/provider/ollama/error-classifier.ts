// Turns anything the `ollama` client or fetch throws into a ProviderErrorInfo. Structure decides
// first (our own ProviderError, abort/timeout names, HTTP status of ResponseError, error codes
// on the error and its `cause` chain); message text only refines a status or stands in when
// there is nothing else (mid-stream `{"error"}` lines arrive as plain Errors without a status).

import { ProviderError } from '../provider-errors';
import type { ProviderErrorInfo, ProviderErrorKind } from '../provider-errors';
import { parseRetryAfter } from './retry-policy';

export interface ClassifyContext {
  /** `signal.reason` when the request's signal fired (else leave it out): it tells our own
   *  timeouts (abort with a ProviderError) from AbortSignal.timeout and from the caller's abort */
  abortReason?: unknown;
  /** the error surfaced while reading the stream (after the first chunk); plain `Error`s from
   *  `{"error"}` lines carry no status, so only this marks them as stream errors */
  midStream?: boolean;
  /** raw Retry-After header, when the caller captured response headers */
  retryAfter?: string | null;
  /** for HTTP-date Retry-After values */
  now?: number;
}

type ErrorLike = { name?: unknown; message?: unknown; code?: unknown; cause?: unknown; errors?: unknown; status_code?: unknown };

const asObject = (value: unknown): ErrorLike | undefined =>
  typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined;

const messageOf = (error: unknown): string => {
  const object = asObject(error);
  if (object && typeof object.message === 'string' && object.message !== '') return object.message;
  // AggregateError from a refused dual-stack connect has no message, only a code
  if (object && typeof object.code === 'string') return object.code;
  if (typeof error === 'string') return error;
  return String(error);
};

// leaves absent fields out (not `undefined`) so the info round-trips through JSON unchanged
const info = (kind: ProviderErrorKind, retryable: boolean, message: string, extra: Partial<ProviderErrorInfo> = {}): ProviderErrorInfo => {
  const result: ProviderErrorInfo = { kind, retryable, message };
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) Object.assign(result, { [key]: value });
  }
  return result;
};

// --- text patterns (fallback / refinement only) ---
const matchesAny = (patterns: readonly RegExp[], message: string): boolean => patterns.some((pattern) => pattern.test(message));

// A model load that did not fit. Ollama's scheduler has already retried it with a smaller context,
// so the provider retries it only once (retry-schedules), in case another model was evicted meanwhile.
const OUT_OF_MEMORY: readonly RegExp[] = [
  // HEAD (v0.33) ErrLoadRequiredFull (llm/server.go), alone or wrapped as "model requires more system
  // memory than is currently available unable to load full model on GPU"; 500
  /unable to load full model/i,
  // older releases (v0.12.0 and v0.20.0 llm/server.go): "model requires more system memory (12.1 GiB)
  // than is available (8.0 GiB)"; 500
  /requires more (system |gpu )?memory/i,
  // HEAD (v0.33): "llama-server reported out-of-memory during startup: <runner text>"; the runner texts
  // ("cudaMalloc failed: out of memory", "CUDA error: out of memory", "failed to allocate Vulkan0 buffer")
  // also arrive after "llama runner process has terminated: …" or mid-stream
  /out[- ]of[- ]memory|\boom\b/i,
  /insufficient memory|not enough memory|cannot allocate memory|cudamalloc failed|(unable|failed) to allocate|allocation failed/i,
];

// A prompt over the context, which the loop answers by compacting (provider-recovery), never a retry.
const CONTEXT_TOO_LONG: readonly RegExp[] = [
  // HEAD (v0.33) llm/llama_server.go with truncate false or no context shift; 400: "the prompt is longer
  // than the context length currently available to the model; shorten the prompt, …"
  /is longer than the (\S+ )?context (length|window|size)/i,
  // "the input length exceeds the context length" (/api/embed, 400), the older wording "input length
  // exceeds maximum context length"; the MLX runner "input length (N tokens) exceeds the
  // model's maximum context length (M tokens)"; llama.cpp's "request (N tokens) exceeds the available
  // context size (M tokens), try increasing it", which v0.32.9 passes on inside a JSON string
  /exceeds? (the )?(model'?s? )?(maximum |max |available )?context/i,
  /input (length )?exceeds|exceed_context_size_error/i,
  /context (length|window|size) (has been |is )?exceeded/i,
  /prompt (is )?too long|too many tokens/i,
];
const TOOLS_UNSUPPORTED = /does not support tools/i;
const THINKING_UNSUPPORTED = /does not support thinking/i;
// the last one is /api/pull's mid-stream error for a name the registry does not have
const MODEL_NOT_FOUND = /model ['"]?[^'"]*['"]? not found|not found, try pulling|pull model manifest: file does not exist/i;
const SERVER_BUSY = /server busy|maximum pending requests/i;
// 500s that a retry cannot fix: malformed options and models the runner cannot load
const PERMANENT_SERVER_ERROR =
  /must be of type|invalid option|unknown model architecture|unsupported model|invalid model|does not support/i;
// NVIDIA's cloud proxy timeout, seen as error text (corvid #1565)
const CLOUD_PROXY_TIMEOUT = /timed out after [\d.]+ seconds|api request returned none/i;
const STREAM_INCOMPLETE = /did not receive done or success response in stream|terminated|socket hang up|premature close/i;

function textKind(message: string): ProviderErrorInfo | undefined {
  if (matchesAny(OUT_OF_MEMORY, message)) return info('out_of_memory', true, message);
  if (matchesAny(CONTEXT_TOO_LONG, message)) return info('context_too_long', false, message);
  if (TOOLS_UNSUPPORTED.test(message)) return info('tools_unsupported', false, message);
  if (THINKING_UNSUPPORTED.test(message)) return info('thinking_unsupported', false, message);
  if (MODEL_NOT_FOUND.test(message)) return info('model_not_found', false, message);
  if (SERVER_BUSY.test(message)) return info('server_busy', true, message);
  if (CLOUD_PROXY_TIMEOUT.test(message)) return info('server_error', true, message);
  return undefined;
}

// --- error codes (Node net errors and undici) ---
const TRANSIENT_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);
const PERMANENT_CONNECTION_CODES = new Set(['ENOTFOUND', 'ERR_INVALID_URL', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

function codeKind(code: string, message: string): ProviderErrorInfo | undefined {
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return info('timeout_first_byte', true, message, { code });
  if (code === 'UND_ERR_BODY_TIMEOUT') return info('timeout_idle', true, message, { code });
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') return info('aborted', false, message, { code });
  if (PERMANENT_CONNECTION_CODES.has(code)) return info('connection', false, message, { code });
  if (TRANSIENT_CONNECTION_CODES.has(code) || code.startsWith('UND_ERR_')) return info('connection', true, message, { code });
  return undefined;
}

/** Codes on the error, its cause chain and AggregateError members, nearest first. */
function collectCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    const object = asObject(value);
    if (!object || seen.has(object) || depth > 5) return;
    seen.add(object);
    if (typeof object.code === 'string') codes.push(object.code);
    visit(object.cause, depth + 1);
    if (Array.isArray(object.errors)) object.errors.forEach((member) => visit(member, depth + 1));
  };
  visit(error, 0);
  return codes;
}

/** The most specific message: a cause's text ("connect ECONNREFUSED …") beats "fetch failed". */
function describe(error: unknown): string {
  const message = messageOf(error);
  const cause = asObject(error)?.cause;
  if (cause === undefined || cause === null) return message;
  const causeMessage = messageOf(cause);
  return causeMessage && causeMessage !== message ? `${message}: ${causeMessage}` : message;
}

function statusKind(status: number, message: string, retryAfterMs: number | undefined): ProviderErrorInfo {
  const base = { status };
  const refined = textKind(message);
  if (status === 429) return info('rate_limited', true, message, { ...base, retryAfterMs });
  if (status === 503) return info('server_busy', true, message, { ...base, retryAfterMs });
  if (status === 401 || status === 403) return info('unauthorized', false, message, base);
  if (status === 404) {
    // "404 page not found" is a wrong host/path, not a missing model
    return /page not found/i.test(message) ? info('bad_request', false, message, base) : info('model_not_found', false, message, base);
  }
  if (status === 413) return info('context_too_long', false, message, base);
  if (status === 499) return info('aborted', false, message, base);
  if (status >= 400 && status < 500) {
    const permanentRefined = refined && !refined.retryable && refined.kind !== 'model_not_found' ? refined : undefined;
    return { ...(permanentRefined ?? info('bad_request', false, message)), ...base };
  }
  if (refined && refined.kind !== 'model_not_found') return { ...refined, ...base };
  if (status === 500 && PERMANENT_SERVER_ERROR.test(message)) return info('bad_request', false, message, base);
  return info('server_error', true, message, base);
}

const isAbortName = (name: unknown): boolean => name === 'AbortError';
const isTimeoutName = (name: unknown): boolean => name === 'TimeoutError';

export function classifyProviderError(error: unknown, context: ClassifyContext = {}): ProviderErrorInfo {
  if (ProviderError.isInstance(error)) return error.info;
  const object = asObject(error);
  const message = describe(error);

  // the signal fired: its reason says why (our timeout, a request timeout, or the caller's abort),
  // whatever the fetch or the stream reader threw because of it
  const reason = context.abortReason;
  if (reason !== undefined) {
    if (ProviderError.isInstance(reason)) return reason.info;
    if (isTimeoutName(asObject(reason)?.name)) return info('timeout_request', false, messageOf(reason));
    return info('aborted', false, messageOf(reason));
  }
  if (isTimeoutName(object?.name)) return info('timeout_request', false, message);
  if (isAbortName(object?.name)) return info('aborted', false, message);

  // ollama-js ResponseError (not exported by the package): name + numeric status_code
  if (object?.name === 'ResponseError' && typeof object.status_code === 'number') {
    const retryAfterMs = parseRetryAfter(context.retryAfter, context.now);
    return statusKind(object.status_code, message, retryAfterMs);
  }

  for (const code of collectCodes(error)) {
    const byCode = codeKind(code, message);
    // the connection worked once the stream started: a drop there is a broken stream
    if (byCode?.kind === 'connection' && context.midStream) return { ...byCode, kind: 'stream_error', retryable: true };
    if (byCode) return byCode;
  }

  const byText = textKind(message);
  if (byText) return byText;
  if (object?.name === 'TypeError' && /fetch failed/i.test(message)) {
    // no code: undici refused before connecting (e.g. a blocked port) or a bare network failure
    return /bad port/i.test(message) ? info('connection', false, message) : info('connection', true, message);
  }
  if (context.midStream || STREAM_INCOMPLETE.test(message)) return info('stream_error', true, message);
  return info('unknown', false, message);
}
