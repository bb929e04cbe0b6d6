// Fault selection and the exact texts a faulted request carries. Pure: the server asks what a
// fault means; the wire behaviour lives in the generation code.
import type { StandinFault, StandinTurn } from './standin-script';

/** Ollama's OLLAMA_MAX_QUEUE overflow text — note the two spaces. */
export const SERVER_BUSY_ERROR = 'server busy, please try again.  maximum pending requests exceeded';

/** A request past OLLAMA_MAX_QUEUE waiting for a load: answered 503 with SERVER_BUSY_ERROR. */
export class QueueFullError extends Error {
  constructor() {
    super(SERVER_BUSY_ERROR);
    this.name = 'QueueFullError';
  }
}

/** What Ollama writes when the runner fails mid-generation. */
export const RUNNER_ERROR = 'an error was encountered while running the model';

/** Ollama's 400 for a prompt over num_ctx with truncate false or no context shift (llm/llama_server.go, v0.33). */
export const PROMPT_TOO_LONG_ERROR =
  'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length';

/** Ollama's 500 for a model that does not fit the GPU (ErrLoadRequiredFull, llm/server.go, v0.33). */
export const LOAD_REQUIRED_FULL_ERROR = 'unable to load full model on GPU';

/** Ollama's 500 when the runner ran out of memory while loading (v0.33). */
export const RUNNER_STARTUP_OOM_ERROR = 'llama-server reported out-of-memory during startup: CUDA error\nCUDA error: out of memory';

/** How many requests reaching the turn get the fault (default 1; negative counts as 0). */
export function faultTimes(fault: StandinFault): number {
  return Math.max(0, Math.floor(fault.times ?? 1));
}

/** The fault the next request to this turn gets, given how many already got it, or undefined. */
export function selectFault(turn: StandinTurn, firedSoFar: number): StandinFault | undefined {
  if (!turn.fault) return undefined;
  return firedSoFar < faultTimes(turn.fault) ? turn.fault : undefined;
}

/** Default `error` text of an injected HTTP fault, shaped like what Ollama sends for that status. */
export function defaultHttpFaultError(status: number, model: string): string {
  switch (status) {
    case 400:
      return 'invalid request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'ollama cloud is disabled: remote model is unavailable';
    case 404:
      return `model '${model}' not found`;
    case 429:
      return 'too many requests';
    case 499:
      return 'request canceled';
    case 500:
      return 'llama runner process has terminated: exit status 2';
    case 502:
      return 'bad gateway';
    case 503:
      return SERVER_BUSY_ERROR;
    case 504:
      return 'gateway timeout';
    default:
      return `stand-in injected HTTP ${status}`;
  }
}

/** Faults that act at a chunk boundary inside the stream. */
export type StreamFault = Extract<StandinFault, { afterChunks: number }>;

export function isStreamFault(fault: StandinFault | undefined): fault is StreamFault {
  return !!fault && 'afterChunks' in fault;
}

/**
 * Index of the chunk before which a stream fault fires. A response of `chunkCount` chunks (the
 * last being done:true) never skips its fault: a large afterChunks fires just before the final chunk.
 */
export function faultChunkIndex(fault: StreamFault, chunkCount: number): number {
  const n = Math.max(0, Math.floor(fault.afterChunks));
  return Math.min(n, Math.max(0, chunkCount - 1));
}

/** A line a client cannot parse: a JSON object cut off mid-way, as a broken proxy would send. */
export function defaultMalformedLine(model: string): string {
  return `{"model":${JSON.stringify(model)},"created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":`;
}

/** Ollama's 500 before v0.33 for a model that does not fit in RAM (the figures are an example's). */
export const SYSTEM_MEMORY_ERROR = 'model requires more system memory (12.3 GiB) than is available (7.8 GiB)';

/** Ollama's 403 for a cloud model when OLLAMA_NO_CLOUD is set. */
export const CLOUD_DISABLED_ERROR = 'ollama cloud is disabled: remote model is unavailable';

/** What ollama.com passes back (429) when the account's quota is spent. */
export const CLOUD_QUOTA_ERROR =
  'you (standin) have reached your weekly usage limit, upgrade for higher limits: https://ollama.com/upgrade';

/** Where a signed-out server sends the user: ollama.com/connect with the host name and its public key (base64url). */
export const CLOUD_SIGNIN_URL = `https://ollama.com/connect?name=standin&key=${Buffer.from(
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFN0YW5kLWluIGtleSwgbm90IGEgcmVhbCBvbmUu',
).toString('base64url')}`;

/** A failure the scheduler answers with its own status and body (cloud sign-in): the server writes it as is. */
export class StandinHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.name = 'StandinHttpError';
  }
}

/** Whether the server may reach ollama.com for cloud models (signin state, OLLAMA_NO_CLOUD). */
export type CloudState = 'signed_in' | 'signed_out' | 'disabled';

/** The error a cloud request gets in this state, or undefined when it goes through. */
export function cloudRefusal(state: CloudState): StandinHttpError | undefined {
  if (state === 'signed_out') return new StandinHttpError(401, { error: 'unauthorized', signin_url: CLOUD_SIGNIN_URL });
  if (state === 'disabled') return new StandinHttpError(403, { error: CLOUD_DISABLED_ERROR });
  return undefined;
}

/** Today's (and older) load, memory, context and cloud failures, by name, with Ollama's status and text. */
export const FAULT_PRESETS = {
  /** v0.33: the runner ran out of memory while starting */
  out_of_memory: { status: 500, error: RUNNER_STARTUP_OOM_ERROR },
  /** v0.33: the model does not fit the GPU and partial offload is off */
  gpu_load_failed: { status: 500, error: LOAD_REQUIRED_FULL_ERROR },
  /** before v0.33: not enough system memory */
  system_memory: { status: 500, error: SYSTEM_MEMORY_ERROR },
  /** the prompt is over the context with truncate: false */
  context_length: { status: 400, error: PROMPT_TOO_LONG_ERROR },
  /** ollama.com's quota, passed through */
  cloud_quota: { status: 429, error: CLOUD_QUOTA_ERROR },
  /** OLLAMA_NO_CLOUD */
  cloud_disabled: { status: 403, error: CLOUD_DISABLED_ERROR },
} as const satisfies Record<string, { status: number; error: string }>;

export type FaultPresetName = keyof typeof FAULT_PRESETS;
export const FAULT_PRESET_NAMES = Object.keys(FAULT_PRESETS) as FaultPresetName[];

/** A named preset as the HTTP fault it is (fires for the first `times` requests of its turn). */
export function presetFault(preset: FaultPresetName, times?: number): Extract<StandinFault, { kind: 'http' }> {
  const { status, error } = FAULT_PRESETS[preset];
  return times === undefined ? { kind: 'http', status, error } : { kind: 'http', status, error, times };
}
