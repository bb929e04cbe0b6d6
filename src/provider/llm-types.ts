// Provider-neutral types shared by the loop, the context module and every provider.
// Plain data only: no Nest, no I/O.

export const LLM_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

export interface LlmToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface LlmMessage {
  role: LlmRole;
  content: string;
  /** assistant turns: the calls the model made */
  toolCalls?: LlmToolCall[];
  /** tool results: which call this answers */
  toolCallId?: string;
  toolName?: string;
  /** assistant turns: reasoning text, recorded apart from the answer */
  thinking?: string;
}

/** The subset of JSON Schema that tool parameters use. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
}

export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export type LlmFinishReason = 'stop' | 'length' | 'load' | 'unload' | 'unknown';

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Latency split of one inference, in milliseconds. */
export interface LlmTimings {
  /** wall clock from request to last chunk, as measured by us */
  wallMs: number;
  /** wall clock from request to the first streamed chunk */
  firstChunkMs?: number;
  /** Ollama's own figures (converted from ns) */
  totalMs?: number;
  loadMs?: number;
  promptEvalMs?: number;
  evalMs?: number;
  /** server-side wait for a parallel slot: total - load - prompt_eval - eval */
  serverQueueMs?: number;
}

export type ToolCallSource = 'native' | 'text' | 'none';

/** The prompt of one call as sent and as the server counted it. */
export interface PromptAccounting {
  /** estimated from the final request body (text-mode rewriting and tool schemas included) */
  estimatedTokens: number;
  /** the runner's loaded context (/api/ps), else the requested num_ctx; null when neither is known */
  contextLength: number | null;
  contextSource: 'loaded' | 'requested' | 'unknown';
  /** the whole prompt as the server counted it, read per its version; null when it cannot be told (do not judge) */
  reportedTokens: number | null;
  /** prompt_eval_cached_count when the server sent it */
  cachedTokens: number | null;
  countSemantics: 'full_prompt' | 'uncached_only';
}

export interface LlmCompletionResult {
  model: string;
  content: string;
  thinking?: string;
  toolCalls: LlmToolCall[];
  toolCallSource: ToolCallSource;
  finishReason: LlmFinishReason;
  usage: LlmUsage;
  timings: LlmTimings;
  /** the prompt as sent and counted (providers that can tell) */
  prompt?: PromptAccounting;
  /** the server's version when the call was made (GET /api/version, cached); null when unknown */
  serverVersion?: string | null;
}
