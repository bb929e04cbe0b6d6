// Typed errors the Ollama provider throws. Each carries a serialisable `info` (what the journal
// stores) and a marker symbol, so `isInstance` checks survive two copies of this module being
// loaded (the vercel/ai pattern) where `instanceof` would not.

export const PROVIDER_ERROR_KINDS = [
  'connection',
  'timeout_first_byte',
  'timeout_idle',
  'timeout_request',
  'server_busy',
  'rate_limited',
  'out_of_memory',
  'server_error',
  'stream_error',
  'model_not_found',
  'bad_request',
  'unauthorized',
  'tools_unsupported',
  'thinking_unsupported',
  'context_too_long',
  'aborted',
  'unknown',
] as const;
export type ProviderErrorKind = (typeof PROVIDER_ERROR_KINDS)[number];

/** Plain data describing a provider failure; safe to JSON.stringify and persist. */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  retryable: boolean;
  /** HTTP status when the server answered with one */
  status?: number;
  /** server-requested pause (Retry-After) */
  retryAfterMs?: number;
  /** low-level error code found on the error or its causes (ECONNREFUSED, UND_ERR_SOCKET, …) */
  code?: string;
  message: string;
}

const hasMarker = (error: unknown, marker: symbol): boolean =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;

const PROVIDER_ERROR = Symbol.for('loupe.provider.ProviderError');
const CONTEXT_TOO_LONG = Symbol.for('loupe.provider.ContextTooLongError');
const TOOLS_UNSUPPORTED = Symbol.for('loupe.provider.ToolsUnsupportedError');
const SLOT_WAIT_TIMEOUT = Symbol.for('loupe.provider.SlotWaitTimeoutError');

export class ProviderError extends Error {
  readonly [PROVIDER_ERROR] = true;
  readonly info: ProviderErrorInfo;

  constructor(info: ProviderErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'ProviderError';
    this.info = info;
  }

  static isInstance(error: unknown): error is ProviderError {
    return hasMarker(error, PROVIDER_ERROR);
  }
}

/** The prompt does not fit the model's context; the loop trims and retries, the provider never does. */
export class ContextTooLongError extends ProviderError {
  readonly [CONTEXT_TOO_LONG] = true;

  constructor(info: ProviderErrorInfo, options?: { cause?: unknown }) {
    super(info, options);
    this.name = 'ContextTooLongError';
  }

  static override isInstance(error: unknown): error is ContextTooLongError {
    return hasMarker(error, CONTEXT_TOO_LONG);
  }
}

/** The model rejected the `tools` parameter; the caller can switch to text-based tool calling. */
export class ToolsUnsupportedError extends ProviderError {
  readonly [TOOLS_UNSUPPORTED] = true;

  constructor(info: ProviderErrorInfo, options?: { cause?: unknown }) {
    super(info, options);
    this.name = 'ToolsUnsupportedError';
  }

  static override isInstance(error: unknown): error is ToolsUnsupportedError {
    return hasMarker(error, TOOLS_UNSUPPORTED);
  }
}

/** Builds the most specific error class for `info.kind`. */
export function toProviderError(info: ProviderErrorInfo, cause?: unknown): ProviderError {
  const options = cause === undefined ? undefined : { cause };
  if (info.kind === 'context_too_long') return new ContextTooLongError(info, options);
  if (info.kind === 'tools_unsupported') return new ToolsUnsupportedError(info, options);
  return new ProviderError(info, options);
}

/** A slot waiter gave up after `timeoutMs`; distinct from an abort, which resolves `false`. */
export class SlotWaitTimeoutError extends Error {
  readonly [SLOT_WAIT_TIMEOUT] = true;
  readonly weight: number;
  readonly waitedMs: number;

  constructor(weight: number, waitedMs: number) {
    super(`Timed out after ${waitedMs} ms waiting for an inference slot (weight ${weight})`);
    this.name = 'SlotWaitTimeoutError';
    this.weight = weight;
    this.waitedMs = waitedMs;
  }

  static isInstance(error: unknown): error is SlotWaitTimeoutError {
    return hasMarker(error, SLOT_WAIT_TIMEOUT);
  }
}
