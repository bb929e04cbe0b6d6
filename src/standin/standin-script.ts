// What the Ollama stand-in replies with: a catalog of fake models and, per model, a list of
// scripted turns served in order. Plain data, so scenarios (YAML) and tests build it directly.

export type StandinCapability = 'completion' | 'tools' | 'thinking' | 'vision' | 'embedding' | 'insert';

export interface StandinModel {
  /** full name as listed by /api/tags, e.g. "qwen3:8b" or "gpt-oss:120b-cloud" */
  name: string;
  family: string;
  /** e.g. "8.2B" */
  parameterSize: string;
  quantization?: string;
  capabilities: StandinCapability[];
  /** bytes on disk (/api/tags size) */
  sizeBytes?: number;
  /** bytes the loaded model occupies in VRAM (/api/ps size_vram); 0 = CPU only */
  vramBytes?: number;
  contextLength?: number;
  /** cloud models (-cloud / :cloud) carry remote_model / remote_host */
  cloud?: boolean;
  /** GPU simulation: parallel requests served at once (Ollama's NUM_PARALLEL). Default 1. */
  parallel?: number;
  /** GPU simulation: time to load the model on first use (or after unload), ms. Default 0. */
  loadMs?: number;
  /** GPU simulation: decode speed, in the stand-in tokenizer's tokens (standin-tokenizer.ts). Default: no delay. */
  tokensPerSecond?: number;
  /** GPU simulation: prompt processing speed; prompt_eval_duration is paced from the uncached prompt tokens. Default: no delay. */
  prefillTokensPerSecond?: number;
  /** how the model writes tool calls as text (when Ollama does not parse them): default by name, then family */
  toolFormat?: StandinToolFormat;
  /** Ollama parses this model's tool calls with a built-in parser, so they are native even without `tools`.
   *  Default: true for the qwen3 and gpt-oss families */
  builtinToolParser?: boolean;
  /** false = known to the registry (pullable) but not on disk until pulled. Default true. */
  installed?: boolean;
}

/** tool-call text shapes: qwen2/hermes `<tool_call>{…}</tool_call>`, llama `{"name":…,"parameters":…}`, mistral `[TOOL_CALLS][…]` */
export type StandinToolFormat = 'hermes' | 'llama' | 'mistral';

export interface StandinToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** fixed tool-call id; default: a fresh "call_" + 8 random [a-z0-9] per response, like Ollama */
  id?: string;
}

/** Fault injected on a turn. It fires for the first `times` requests (default 1) that reach the
 *  turn; after that the turn is served normally (so a retried request gets the real reply). */
export type StandinFault =
  | { kind: 'http'; status: number; error?: string; retryAfterSeconds?: number; times?: number }
  | { kind: 'delay_first_byte'; ms: number; times?: number }
  | { kind: 'stall'; afterChunks: number; ms: number; times?: number }
  | { kind: 'disconnect'; afterChunks: number; times?: number }
  /** `line` replaces the default truncated-JSON line (it must not contain a newline) */
  | { kind: 'malformed_line'; afterChunks: number; line?: string; times?: number }
  | { kind: 'error_line'; afterChunks: number; error: string; times?: number };

export interface StandinTurn {
  /** raw model text; may itself contain tool calls written as text */
  content?: string;
  thinking?: string;
  /** native tool calls (message.tool_calls) */
  toolCalls?: StandinToolCall[];
  doneReason?: 'stop' | 'length';
  /** override the reported prompt_eval_count / eval_count (default: counted with the stand-in tokenizer
   *  from the templated prompt and from what the reply carries); a pin wins over num_predict and version quirks */
  promptEvalCount?: number;
  evalCount?: number;
  fault?: StandinFault;
}

export interface StandinScript {
  /** turns per model name; the key "*" serves any model without its own list */
  turns: Record<string, StandinTurn[]>;
  /** start again from the first turn when a model's list is exhausted (benchmarks) */
  loop?: boolean;
  /** past the end of a model's list (without loop): answer an error (default), or repeat the last turn, as a stuck model would */
  whenExhausted?: 'error' | 'repeat_last';
}

export interface StandinOptions {
  catalog?: StandinModel[];
  script?: StandinScript;
  /** Ollama's OLLAMA_MAX_QUEUE: requests waiting beyond this get 503 */
  maxQueue?: number;
  version?: string;
  /** /api/pull pacing: ms between progress lines (default 60, like Ollama) and progress lines
   *  per layer that is downloaded (default 4). Tests set stepMs to 0 or a few ms. */
  pull?: { stepMs?: number; progressSteps?: number };
  /** default keep_alive when a request has none (Ollama: 5m). Go duration string or seconds. */
  defaultKeepAlive?: string | number;
  /** requests kept in the request log, the newest ones (default: all of them) */
  requestLogLimit?: number;
  /** OLLAMA_CONTEXT_LENGTH: the num_ctx of a request that sets none (default 4096; capped at each model's contextLength) */
  defaultContextLength?: number;
  /** OLLAMA_MAX_LOADED_MODELS: models loaded at once before the least recently used idle one is evicted (default 3) */
  maxLoadedModels?: number;
  /** the simulated GPU's memory in bytes: loading a model that does not fit evicts idle ones (default 24 GiB) */
  gpuVramBytes?: number;
  /** multiplies simulated durations (load time, keep_alive, decode pacing): 0.01 runs 100× faster (default 1) */
  timeScale?: number;
  /** cloud models: signed_in (default), signed_out (401 with signin_url), disabled (403, OLLAMA_NO_CLOUD) */
  cloud?: 'signed_in' | 'signed_out' | 'disabled';
  /** OLLAMA_NUM_PARALLEL: slots of a model without its own `parallel` (default 1) */
  numParallel?: number;
  /** models already loaded when the server starts (and after reset), as a request with these options would have left them */
  loaded?: StandinPreload[];
}

/** A model warm at start: its runner options (unset = the server defaults) and keep_alive (default: the server's). */
export interface StandinPreload {
  model: string;
  numCtx?: number;
  numBatch?: number;
  numGpu?: number;
  /** seconds, or a Go duration string; negative = forever */
  keepAlive?: string | number;
}
