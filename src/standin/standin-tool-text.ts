// Which tool calls a model's reply carries natively, and how the rest read as text. Ollama parses
// tool calls in two ways: models with a built-in parser (qwen3, gpt-oss's harmony) always return
// native tool_calls; every other model's calls are parsed by its template's tool-call prefix, and
// only when the request carries `tools` — without them the model's raw call text stays in
// `content`. The text shapes below are the ones Loupe's extractor reads
// (src/provider/ollama/tool-calls/formats: tagged-blocks, loose-json, mistral).
import type { StandinModel, StandinToolCall, StandinToolFormat } from './standin-script';

/** families whose Ollama model config names a built-in parser (model/parsers) */
const BUILTIN_PARSER_FAMILY = /^(qwen3|gpt-?oss)/i;

/** The model's own tool-call text shape: explicit, else by name (mistral:7b reports the llama family), else by family. */
export function toolTextFormat(model: Pick<StandinModel, 'name' | 'family' | 'toolFormat'>): StandinToolFormat {
  if (model.toolFormat) return model.toolFormat;
  const name = model.name.toLowerCase();
  if (/mistral|mixtral|magistral|codestral|devstral|pixtral/.test(name)) return 'mistral';
  const family = model.family.toLowerCase();
  if (/qwen3|gpt-?oss/.test(name) || BUILTIN_PARSER_FAMILY.test(family)) return 'hermes';
  if (/llama/.test(name) || family === 'llama') return 'llama';
  return 'hermes';
}

/** true: the model's calls come back as message.tool_calls; false: as text in content. */
export function parsesToolCallsNatively(model: Pick<StandinModel, 'family' | 'builtinToolParser'>, toolsSent: boolean): boolean {
  const builtin = model.builtinToolParser ?? BUILTIN_PARSER_FAMILY.test(model.family);
  return builtin || toolsSent;
}

/** Whether the request carries tools the way Ollama checks it (`len(req.Tools) > 0`). */
export function requestHasTools(tools: unknown): boolean {
  return Array.isArray(tools) && tools.length > 0;
}

const callJson = (call: StandinToolCall, argsKey: 'arguments' | 'parameters'): string =>
  JSON.stringify({ name: call.name, [argsKey]: call.arguments ?? {} });

/** The calls as the model writes them, e.g. qwen2's `<tool_call>{…}</tool_call>`. */
export function renderToolCallsText(calls: readonly StandinToolCall[], format: StandinToolFormat): string {
  if (calls.length === 0) return '';
  switch (format) {
    case 'hermes':
      return calls.map((c) => `<tool_call>\n${callJson(c, 'arguments')}\n</tool_call>`).join('\n');
    case 'llama':
      return calls.map((c) => callJson(c, 'parameters')).join('\n');
    case 'mistral':
      return `[TOOL_CALLS]${JSON.stringify(calls.map((c) => ({ name: c.name, arguments: c.arguments ?? {} })))}`;
  }
}

/** Text of one native call as the model generated it (its token cost, and its share of a budget). */
export function nativeCallText(call: StandinToolCall, format: StandinToolFormat): string {
  return renderToolCallsText([call], format);
}
