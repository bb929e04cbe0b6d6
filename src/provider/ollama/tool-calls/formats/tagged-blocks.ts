// Calls inside wrapper markers: <tool_call>…</tool_call> (Hermes, Qwen, GLM, Qwen3-Coder) and
// the other tags and special tokens models wrap calls in. Explicit markers: a call in them is
// meant as a call even when its name is unknown. A missing closing tag (output cut off) is
// tolerated when the body itself is whole.
import { createFinder } from '../marker-finder';
import type { CallSpan, ExtractionStrategy } from '../types';
import { parseCallBlock, type BodyKind } from './call-body';

interface Wrapper {
  open: string;
  close: string[];
  strategy: ExtractionStrategy;
  /** the format has no closing marker of its own: a whole body is a closed call */
  closeOptional?: boolean;
}

const WRAPPERS: Wrapper[] = [
  { open: '<tool_call>', close: ['</tool_call>'], strategy: 'tool_call_tag' },
  { open: '<tool_calls>', close: ['</tool_calls>'], strategy: 'tool_call_tag' },
  { open: '<function_call>', close: ['</function_call>'], strategy: 'tool_call_tag' },
  { open: '<functioncall>', close: ['</functioncall>'], strategy: 'tool_call_tag', closeOptional: true }, // Glaive
  { open: '[TOOL_REQUEST]', close: ['[END_TOOL_REQUEST]'], strategy: 'tool_call_tag' }, // LM Studio
  // Gemma 3 writes Python calls in a tool_code fence
  { open: '```tool_code', close: ['```'], strategy: 'pythonic' },
  { open: '```tool_call', close: ['```'], strategy: 'tool_call_tag' },
  { open: '<minimax:tool_call>', close: ['</minimax:tool_call>'], strategy: 'tool_call_tag' },
  { open: '<seed:tool_call>', close: ['</seed:tool_call>'], strategy: 'tool_call_tag' }, // Seed-OSS
  { open: '<TOOLCALL>', close: ['</TOOLCALL>'], strategy: 'tool_call_tag' }, // Nemotron
  { open: '<function_calls>', close: ['</function_calls>'], strategy: 'tool_call_tag' }, // Olmo 3, Claude-style
  // Phi-4-mini closes its tag, Granite does not
  { open: '<|tool_call|>', close: ['<|/tool_call|>', '<|end_tool_call|>'], strategy: 'tool_call_tag', closeOptional: true },
  { open: '<|tool_call_start|>', close: ['<|tool_call_end|>'], strategy: 'tool_call_tag' }, // LFM2
  { open: '<|START_ACTION|>', close: ['<|END_ACTION|>'], strategy: 'tool_call_tag' }, // Command R7B
  { open: '<|action_start|><|plugin|>', close: ['<|action_end|>'], strategy: 'tool_call_tag' }, // InternLM
  { open: '<|python_tag|>', close: ['<|eom_id|>', '<|eot_id|>'], strategy: 'python_tag', closeOptional: true },
  { open: '<|python_start|>', close: ['<|python_end|>'], strategy: 'python_tag', closeOptional: true }, // Llama 4
];

export function scanTaggedBlocks(text: string): CallSpan[] {
  const spans: CallSpan[] = [];
  // re-reading past the next opener (see below) is paid from a budget, so it stays linear
  let budget = 8 * text.length + 65536;
  for (const wrapper of WRAPPERS) {
    const nextOpen = createFinder(text, wrapper.open);
    let at = nextOpen(0);
    while (at !== -1) {
      const bodyStart = at + wrapper.open.length;
      const following = nextOpen(bodyStart);
      const regionEnd = following === -1 ? text.length : following;
      const region = text.slice(bodyStart, regionEnd);
      if (following !== -1 && region.trim() === '') {
        // a stuttered opener (<tool_call><tool_call>{…}) is dropped with the call that follows
        spans.push({ start: at, end: following, strategy: null, calls: [], explicit: true, closed: true });
        at = following;
        continue;
      }
      let block = parseCallBlock(region, wrapper.close, regionEnd === text.length);
      if (!block && following !== -1 && budget > 0 && /^\s*[[{]/.test(region)) {
        // the next opener may sit inside one of this body's JSON strings ("content": "<tool_call>…")
        budget -= text.length - bodyStart;
        block = parseCallBlock(text.slice(bodyStart), wrapper.close, true);
      }
      if (block && block.calls.length > 0 && (block.complete || block.closedByTag)) {
        const strategy = strategyOf(block.kind, wrapper.strategy);
        spans.push({
          start: at,
          end: bodyStart + block.end,
          strategy,
          calls: block.calls,
          explicit: true,
          closed: block.closedByTag || (wrapper.closeOptional === true && block.complete),
        });
      }
      at = block && bodyStart + block.end > regionEnd ? nextOpen(bodyStart + block.end) : following;
    }
  }
  return spans;
}

/** JSON bodies are named after their wrapper; other bodies after their own format. */
function strategyOf(kind: BodyKind, wrapperStrategy: ExtractionStrategy): ExtractionStrategy {
  if (kind === 'json') return wrapperStrategy;
  if (kind === 'pythonic') return wrapperStrategy === 'python_tag' ? 'python_tag' : 'pythonic';
  return kind;
}
