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
  /** GPU simulation: decode speed; tokens are whitespace-separated words. Default: no delay. */
  tokensPerSecond?: number;
  /** false = known to the registry (pullable) but not on disk until pulled. Default true. */
  installed?: boolean;
}

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
  /** override the reported prompt_eval_count / eval_count (default: deterministic word counts) */
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
}
