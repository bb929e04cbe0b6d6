import type { JournalEventMap } from '../journal/journal-events';
import type { LlmCompletionResult, LlmMessage, LlmToolDefinition } from './llm-types';
import type { TokenEstimatorName } from '../context/token-estimation';
import type { RetryScheduleName } from './ollama/retry-schedules';
import type { ExtractionPolicy } from './ollama/tool-calls/types';

/** The events a provider reports (requests, retries, extraction and its repairs, GPU detection). */
export type ProviderEventType =
  | 'inference_request'
  | 'inference_retry'
  | 'stream_malformed_line'
  | 'tool_calls_extracted'
  | 'tool_name_repaired'
  | 'tool_args_normalized'
  | 'tool_args_coerced'
  | 'tool_call_repaired'
  | 'tool_call_dropped'
  | 'model_reloaded'
  | 'inference_response'
  | 'gpu_detected';

/** Something the provider wants recorded, in the journal's vocabulary. */
export type ProviderEventSink = <K extends ProviderEventType>(type: K, payload: JournalEventMap[K]) => void;

export interface CompletionRequest {
  model: string;
  messages: LlmMessage[];
  /** undefined or empty: tools disabled for this call */
  tools?: LlmToolDefinition[];
  signal?: AbortSignal;
  /** sampling options left unset are not sent: the model's and Ollama's defaults apply */
  options?: {
    numCtx?: number;
    numPredict?: number;
    seed?: number;
    temperature?: number;
    topP?: number;
    topK?: number;
    minP?: number;
    repeatPenalty?: number;
  };
  onDelta?: (delta: { content?: string; thinking?: string }) => void;
  onEvent?: ProviderEventSink;
  /** which failures are retried and how (the session's loop profile); default: Loupe's */
  retrySchedule?: RetryScheduleName;
  /** how the prompt of the final request body is estimated (the session's estimator; default content_aware) */
  tokenEstimator?: TokenEstimatorName;
  /** text-mode tool calls: strict or lenient extraction; unset: the provider's (LOUPE_TOOL_CALL_EXTRACTION) */
  toolCallExtraction?: ExtractionPolicy;
  /** called once the request body is built, before it is sent: its prompt estimate and the context it goes against */
  onPrepared?: (prompt: PreparedPrompt) => void;
  /** part of a session's measured work (default true): a reload during it is a pathology of the run */
  measured?: boolean;
}

/** The prompt as it is sent: estimated from the final body (text-mode rewriting and tool schemas included). */
export interface PreparedPrompt {
  estimatedTokens: number;
  /** the runner's loaded context (/api/ps), else the requested num_ctx; null when neither is known */
  contextLength: number | null;
  contextSource: 'loaded' | 'requested' | 'unknown';
}

export interface SlotStatus {
  queuePosition: number;
  queueLength: number;
  activeWeight: number;
  maxWeight: number;
}

export interface LlmProvider {
  /** gen_ai.provider.name */
  readonly name: string;
  readonly host: string;
  complete(request: CompletionRequest): Promise<LlmCompletionResult>;
  acquireSlot(model: string, signal?: AbortSignal, onStatus?: (s: SlotStatus) => void): Promise<boolean>;
  /** gives the slot back; what the provider learns from it (GPU detection) it records for the host itself */
  releaseSlot(model: string): void;
  /** resolves when background work started by earlier calls (GPU detection) has finished */
  idle(): Promise<void>;
  isAvailable(): Promise<boolean>;
  /** models the host offers (for Ollama: installed, plus local cloud models when the host is remote) */
  listModels(): Promise<string[]>;
  /** what a trial ran against: the model's digest and the server's version (null where unknown) */
  describe(model: string): Promise<{ digest: string | null; serverVersion: string | null }>;
  /**
   * Loads the model before timed work with the runner options inference will send for `numCtx`
   * and the run's keep_alive (and fills what trials' setup asks for), so trials are timed warm.
   */
  warm(model: string, options?: { numCtx?: number }): Promise<void>;
}
