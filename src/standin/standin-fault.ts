// Fault selection and the exact texts a faulted request carries. Pure: the server asks what a
// fault means; the wire behaviour lives in the generation code.
import type { StandinFault, StandinTurn } from './standin-script';

/** Ollama's OLLAMA_MAX_QUEUE overflow text — note the two spaces. */
export const SERVER_BUSY_ERROR = 'server busy, please try again.  maximum pending requests exceeded';

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
