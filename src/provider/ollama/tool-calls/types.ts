// Types of the text tool-call extractor. Plain data only, so the agent loop can journal them as-is.
import type { LlmToolCall } from '../../llm-types';
import type { ParserFamily } from './policy/parser-family';

/** The format a call was written in (which scanner recognised it). */
export type ExtractionStrategy =
  | 'tool_call_tag' // <tool_call>{json}</tool_call> and other tags wrapping JSON (Hermes, Qwen, Phi-4, Granite…)
  | 'xml_function' // <function=name><parameter=k>v</parameter></function>, or a JSON body (Qwen3-Coder, Llama)
  | 'xml_invoke' // <invoke name="x"><parameter name="k">v</parameter></invoke> (MiniMax, Claude-style)
  | 'arg_key_value' // <tool_call>name<arg_key>k</arg_key><arg_value>v</arg_value> (GLM 4.5+)
  | 'mistral' // [TOOL_CALLS][…] and [TOOL_CALLS]name[ARGS]{…}
  | 'python_tag' // <|python_tag|>f(x=1) or JSON (Llama 3.x)
  | 'pythonic' // [f(a=1), g(b="x")] (Llama 3.2/4, LFM2, Olmo 3)
  | 'deepseek' // <｜tool▁call▁begin｜>…<｜tool▁sep｜>… (DeepSeek R1 / V3 / V3.1)
  | 'step3' // <｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=…> (Step-3)
  | 'kimi' // <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…} (Kimi K2)
  | 'harmony' // <|channel|>commentary to=functions.name<|message|>{…} (gpt-oss)
  | 'gemma' // <|tool_call>call:name{…}<tool_call|> (Gemma 4) and <start_function_call> (FunctionGemma)
  | 'apertus' // <|tools_prefix|>[{"name": {…}}]<|tools_suffix|> (Apertus)
  | 'functionary' // >>>name\n{…} (Functionary v3.2)
  | 'react' // Action: name / Action Input: {…}
  | 'json' // bare {"name":…,"arguments":…} objects and arrays
  | 'fenced_json' // the same inside a ``` fence
  | 'name_then_json' // a tool name on one line, its JSON arguments on the next
  | 'ifm' // <ifm|tool_call>name<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>v</ifm|arg_value> or JSON (K2 Horizon, K2-V3)
  | 'hunyuan' // <tool_calls:SUFFIX><tool_call:SUFFIX>name<arg_key:SUFFIX>… (Hunyuan HY-V4)
  | 'solar_open' // <|tool_call:start|>name\n<|tool_arg:start|>k<|tool_arg:value|>v<|tool_arg:end|> (Solar Open 2)
  | 'plamo' // <|plamo:begin_tool_request:plamo|>…name…{json} (PLaMo 3)
  | 'kimi_k3' // <|open|>call tool="x"<|sep|><|open|>argument key="k" type="t"<|sep|>v… (Kimi K3 XTML)
  | 'minimax_m3' // ]<]minimax[>[<invoke name="x">]<]minimax[>[<k>v… nested elements (MiniMax M3)
  | 'cwm'; // <tool: function>\nname input\n</tool> (Code World Model)

/** How a hallucinated or decorated tool name was mapped onto a declared tool. */
export type NameRepairHow = 'case' | 'prefix' | 'fuzzy';

/**
 * `lenient` (the default) repairs what a model got slightly wrong (misspelt tags, look-alike
 * special tokens, pseudo-JSON, near-miss names) and records each repair; `strict` accepts only
 * what the family's reference parser accepts and drops the rest with the reason.
 */
export type ExtractionPolicy = 'strict' | 'lenient';

export const EXTRACTION_POLICIES: readonly ExtractionPolicy[] = ['strict', 'lenient'];

export type ExtractionRepair =
  | { kind: 'tool_name_repaired'; callIndex: number; from: string; to: string; how: NameRepairHow }
  /** the call's markup or argument text was repaired (what `RawCall.irregular` said); strict drops such a call */
  | { kind: 'call_repaired'; callIndex: number; detail: string }
  | { kind: 'tool_args_normalized'; callIndex: number; from: string; to: string }
  | { kind: 'arg_coerced'; callIndex: number; key: string; from: string; to: string };

/** A call the model wrote whose name extraction could not resolve, and why (returned as a call only with `unknownTools: 'pass'`). */
export interface DroppedCall {
  /** the name as written */
  name: string;
  arguments: Record<string, unknown>;
  strategy: ExtractionStrategy | null;
  /**
   * unknown_tool: tools were declared and the name matches none of them, not even closely (under
   * strict: not exactly). strict_rejected: the family's reference parser would reject the call.
   */
  reason: DropReason;
  /** what was wrong, in words (always set for strict_rejected) */
  detail?: string;
}

export type DropReason = 'unknown_tool' | 'strict_rejected';

export interface ToolCallExtraction {
  calls: LlmToolCall[];
  /** the content with calls, their markers and reasoning removed */
  text: string;
  /** the format of the first call found, or null when there is none */
  strategy: ExtractionStrategy | null;
  /** every format that contributed a call, in order of first appearance */
  strategies: ExtractionStrategy[];
  repairs: ExtractionRepair[];
  /** reasoning written in <think>…</think> (or a model's own channel); never a source of calls */
  thinking?: string;
  /** calls written with explicit markers naming no declared tool (present only when there were some) */
  dropped?: DroppedCall[];
}

export interface ExtractOptions {
  /**
   * An explicit call naming no declared tool: left out of `calls` (drop), or returned under the
   * name as written (pass) so the agent loop answers it `Unknown tool: <name>` as it does a native
   * call. Either way it is listed in `dropped`, and never run under a guessed name. Default: drop.
   */
  unknownTools?: 'drop' | 'pass';
  /** strict: only what the family's reference parser accepts; lenient (default): repair and record */
  policy?: ExtractionPolicy;
  /**
   * The family whose reference parser reads this model's calls, where it differs from the shared
   * reading (policy/parser-family.ts). Unset: inferred from `model`, or none (every family's reading).
   */
  family?: ParserFamily;
  /** the model that wrote the content: its name says the family when `family` is unset */
  model?: string;
  /** makes ids deterministic in tests; defaults to 'call_' + 8 random [a-z0-9] */
  generateId?: () => string;
}

/** A call as a scanner read it, before name resolution and argument repair. */
export interface RawCall {
  name: string;
  arguments: Record<string, unknown>;
  /** positional python arguments, mapped onto the schema's parameter order once the tool is known */
  positional?: unknown[];
  /** a non-JSON argument text (ReAct "Action Input: some text"), mapped once the tool is known */
  inputText?: string;
  /**
   * How the format writes argument values as text, when it does: `decode` (GLM) — a value is
   * JSON unless the schema says string; `null` (Qwen3-Coder, Seed-OSS, MiniMax) — the word null
   * is null. Other text values stay strings until the schema types them.
   */
  textValues?: 'decode' | 'null';
  /**
   * Set by a scanner that read the call only by repairing it — what the family's reference parser
   * would reject, in words ("misspelt tag <tool_cal>", "arguments are single-quoted pseudo-JSON").
   * Lenient keeps the call and records a `call_repaired`; strict drops it (`strict_rejected`).
   */
  irregular?: string;
}

/**
 * A region of the (reasoning-free) text that a scanner claims. Call spans carry calls;
 * marker spans (calls empty) only remove special tokens. `keep` is text that replaces the region.
 */
export interface CallSpan {
  start: number;
  end: number;
  strategy: ExtractionStrategy | null;
  calls: RawCall[];
  /** written with an explicit call marker: keeps calls whose name does not resolve */
  explicit: boolean;
  /** false when the block's closing marker is missing (the output was cut off) */
  closed: boolean;
  keep?: string;
}
