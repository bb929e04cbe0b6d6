// The prompt a request becomes once templated, in stand-in tokens, and what of it fits the loaded
// context. prompt_eval_count counts all of it (llm/llama_server.go: cache_n + prompt_n): the
// tool schemas the template renders, every message with its template markers, and the open
// assistant header. Over the context, Ollama's chatPrompt (server/prompt.go) silently drops the
// oldest messages, keeping system messages and the last message and never orphaning a tool result
// from the assistant turn that called it. Pure: the handler asks, tests check the arithmetic.
import { tokenize } from './standin-tokenizer';
import { requestHasTools } from './standin-tool-text';

/** BOS, and the open assistant header the template ends with ("<|im_start|>", "assistant", "\n"). */
export const PROMPT_OVERHEAD_TOKENS = 4;
/** per message: its start marker, role, the newline after it, and its end marker
 *  (qwen2's `<|im_start|>user\n…<|im_end|>`, llama3's `<|start_header_id|>user<|end_header_id|>\n\n…<|eot_id|>`). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The instructions a tools-capable template renders around the schemas (after qwen2.5's). */
export const TOOLS_PREAMBLE =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n</tools>\n\n' +
  'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags.';
/** Ollama's num_keep default: the prompt tokens a context shift keeps from the start. */
export const NUM_KEEP = 4;

// special tokens can never equal a text token (text tokens never contain NUL)
const BOS = '\u0000bos';
const START = '\u0000start';
const END = '\u0000end';

export interface PromptRequest {
  kind: 'chat' | 'generate';
  /** chat: the request's messages */
  messages?: unknown;
  /** generate: system and prompt */
  system?: unknown;
  prompt?: unknown;
  tools?: unknown;
}

interface PromptMessage {
  role: string;
  /** carries tool_calls (a tool result after it belongs to it) */
  calls: boolean;
  tokens: string[];
}

export interface RenderedPrompt {
  /** BOS and the tools block */
  head: string[];
  messages: PromptMessage[];
  /** the open assistant header */
  tail: string[];
}

function messageTokens(raw: Record<string, unknown>): string[] {
  const role = typeof raw.role === 'string' ? raw.role : 'user';
  const out = [START, role, '\n'];
  if (typeof raw.content === 'string') out.push(...tokenize(raw.content));
  if (typeof raw.thinking === 'string') out.push(...tokenize(raw.thinking));
  if (Array.isArray(raw.tool_calls)) {
    for (const tc of raw.tool_calls as { function?: { name?: unknown; arguments?: unknown } }[]) {
      const fn = tc?.function;
      if (fn && typeof fn.name === 'string') out.push(...tokenize(JSON.stringify({ name: fn.name, arguments: fn.arguments ?? {} })));
    }
  }
  out.push(END);
  return out; // images are left out: the stand-in has no projector
}

function requestMessages(req: PromptRequest): Record<string, unknown>[] {
  if (req.kind === 'generate') {
    const out: Record<string, unknown>[] = [];
    if (typeof req.system === 'string' && req.system !== '') out.push({ role: 'system', content: req.system });
    out.push({ role: 'user', content: typeof req.prompt === 'string' ? req.prompt : '' });
    return out;
  }
  if (!Array.isArray(req.messages)) return [];
  return (req.messages as unknown[]).filter((m): m is Record<string, unknown> => !!m && typeof m === 'object');
}

/** The templated prompt, as tokens grouped by where truncation can cut. */
export function renderPrompt(req: PromptRequest): RenderedPrompt {
  const head = [BOS];
  if (req.kind === 'chat' && requestHasTools(req.tools)) {
    head.push(START, 'system', '\n', ...tokenize(TOOLS_PREAMBLE));
    for (const tool of req.tools as unknown[]) head.push('\n', ...tokenize(JSON.stringify(tool)));
    head.push(END);
  }
  const messages = requestMessages(req).map((m) => ({
    role: typeof m.role === 'string' ? m.role : 'user',
    calls: Array.isArray(m.tool_calls) && m.tool_calls.length > 0,
    tokens: messageTokens(m),
  }));
  const tail = [START, 'assistant', '\n'];
  return { head, messages, tail };
}

/** server/prompt.go toolBlockStartIndex: a tool result starts its block at the assistant call before it. */
function toolBlockStart(messages: PromptMessage[], idx: number): number {
  if (idx <= 0 || idx >= messages.length || messages[idx].role !== 'tool') return idx;
  let start = idx;
  while (start > 0 && messages[start - 1].role === 'tool') start--;
  const assistant = start - 1;
  if (assistant >= 0 && messages[assistant].role === 'assistant' && messages[assistant].calls) return assistant;
  return idx;
}

export interface FittedPrompt {
  /** the prompt the runner evaluates */
  tokens: string[];
  /** the whole templated prompt, before anything was dropped */
  fullTokens: number;
  /** messages chatPrompt dropped (oldest non-system first) */
  droppedMessages: number;
  /** fullTokens − tokens.length: what truncation (messages dropped, then a context shift) removed */
  droppedTokens: number;
  /** even the kept messages exceed the context: a runner that cannot shift (or truncate:false) answers 400 */
  tooLong: boolean;
}

function assemble(p: RenderedPrompt, from: number): string[] {
  const out = [...p.head];
  for (let i = 0; i < from; i++) if (p.messages[i].role === 'system') out.push(...p.messages[i].tokens);
  for (let i = from; i < p.messages.length; i++) out.push(...p.messages[i].tokens);
  out.push(...p.tail);
  return out;
}

/**
 * What of the prompt the runner gets with `contextLength` loaded. truncate (Ollama's default):
 * chatPrompt's message dropping, then, if still too long and the runner can shift, the context
 * shift's cut (the first NUM_KEEP tokens and the newest rest). truncate false: nothing dropped.
 */
export function fitPrompt(p: RenderedPrompt, contextLength: number, opts: { truncate: boolean; shift: boolean }): FittedPrompt {
  const sizes = p.messages.map((m) => m.tokens.length);
  const fixed = p.head.length + p.tail.length;
  const fullTokens = fixed + sizes.reduce((a, b) => a + b, 0);
  let from = 0;
  if (opts.truncate && p.messages.length > 0) {
    const last = p.messages.length - 1;
    for (let i = 0; i <= last; i++) {
      const start = toolBlockStart(p.messages, i);
      let count = fixed;
      for (let j = 0; j < sizes.length; j++) if (j >= start || p.messages[j].role === 'system') count += sizes[j];
      if (count <= contextLength || i === last) {
        from = start;
        break;
      }
    }
  }
  let tokens = assemble(p, from);
  let droppedMessages = 0;
  for (let i = 0; i < from; i++) if (p.messages[i].role !== 'system') droppedMessages++;
  const tooLong = tokens.length > contextLength;
  if (tooLong && opts.truncate && opts.shift) {
    const keep = Math.min(NUM_KEEP, contextLength);
    tokens = [...tokens.slice(0, keep), ...tokens.slice(tokens.length - (contextLength - keep))];
  }
  return { tokens, fullTokens, droppedMessages, droppedTokens: fullTokens - tokens.length, tooLong };
}

/** What the request log keeps of the prompt, so tests can assert the truncation. */
export interface StandinPromptRecord {
  /** the context the model was loaded with */
  contextLength: number;
  /** the whole templated prompt */
  fullTokens: number;
  /** the prompt the runner evaluated (prompt_eval_count before version quirks) */
  tokens: number;
  /** of those, reused from the runner's prompt cache */
  cachedTokens: number;
  droppedMessages: number;
  droppedTokens: number;
  /** answered 400: the prompt is longer than the context length */
  rejected: boolean;
}
