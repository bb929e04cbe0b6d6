import type { JournalEventType } from '../journal/journal-events';
import type { LlmCompletionResult, LlmMessage, LlmToolDefinition } from './llm-types';

/** Something the provider wants recorded (retries, extraction, slot waits, GPU detection). */
export type ProviderEventSink = (type: JournalEventType, payload: Record<string, unknown>) => void;

export interface CompletionRequest {
  model: string;
  messages: LlmMessage[];
  /** undefined or empty: tools disabled for this call */
  tools?: LlmToolDefinition[];
  signal?: AbortSignal;
  options?: { numCtx?: number; numPredict?: number; temperature?: number; seed?: number };
  onDelta?: (delta: { content?: string; thinking?: string }) => void;
  onEvent?: ProviderEventSink;
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
  /** may return a promise (GPU detection after the first release); callers need not wait */
  releaseSlot(model: string, onEvent?: ProviderEventSink): void | Promise<void>;
  isAvailable(): Promise<boolean>;
  /** models the host offers (for Ollama: installed, plus local cloud models when the host is remote) */
  listModels(): Promise<string[]>;
}
