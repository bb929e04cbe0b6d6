// Calls inside wrapper markers: <tool_call>…</tool_call> (Hermes, Qwen, GLM, Qwen3-Coder) and
// the other tags and special tokens models wrap calls in. Explicit markers: a call in them is
// meant as a call. A missing closing tag (output cut off) is tolerated when the body itself is
// whole. Generic tags some models use (<tool>, <json>, …) are weak: their calls count only when
// they name a declared tool.
import { skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import { PARSER_FAMILY_NAMES, type ParserFamily } from '../policy/parser-family';
import type { CallSpan, ExtractionStrategy } from '../types';
import { parseCallBlock, type BodyKind } from './call-body';
import type { FormatScanner, ScanContext } from './scan-context';

interface Wrapper {
  open: string;
  close: string[];
  strategy: ExtractionStrategy;
  /** the format has no closing marker of its own: a whole body is a closed call */
  closeOptional?: boolean;
  /** a generic tag: its calls count only when they name a declared tool */
  weak?: boolean;
  /** a body that is not a call is source code for this tool (Llama/Functionary ipython) */
  rawCodeTool?: string;
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
  { open: '<steptml:toolcall>', close: ['</steptml:toolcall>'], strategy: 'step3' }, // Step deep-research
  { open: '<longcat_tool_call>', close: ['</longcat_tool_call>'], strategy: 'tool_call_tag' }, // LongCat
  { open: '<TOOLCALL>', close: ['</TOOLCALL>'], strategy: 'tool_call_tag' }, // Nemotron
  { open: '<function_calls>', close: ['</function_calls>'], strategy: 'tool_call_tag' }, // Olmo 3, Claude-style
  // DeepSeek V3.2 (the closing tag is sometimes written without its namespace)
  { open: '<｜DSML｜function_calls>', close: ['</｜DSML｜function_calls>', '</function_calls>'], strategy: 'tool_call_tag' },
  { open: '<|DSML|function_calls>', close: ['</|DSML|function_calls>', '</function_calls>'], strategy: 'tool_call_tag' },
  // DeepSeek V4 renamed the section
  { open: '<｜DSML｜tool_calls>', close: ['</｜DSML｜tool_calls>'], strategy: 'tool_call_tag' },
  { open: '<|DSML|tool_calls>', close: ['</|DSML|tool_calls>'], strategy: 'tool_call_tag' },
  { open: '<｜GCML｜tool_calls>', close: ['</｜GCML｜tool_calls>'], strategy: 'tool_call_tag' }, // GigaChat 3.5
  { open: '<dots_function_call>', close: ['</dots_function_call>'], strategy: 'tool_call_tag' }, // dots.llm
  { open: '<atem:function_calls>', close: ['</atem:function_calls>'], strategy: 'tool_call_tag' }, // Muse Glimmer
  { open: '<iquestcoder_tool_call>', close: ['</iquestcoder_tool_call>'], strategy: 'tool_call_tag' }, // iQuest Coder V2
  // Phi-4-mini closes its tag, Granite does not
  { open: '<|tool_call|>', close: ['<|/tool_call|>', '<|end_tool_call|>'], strategy: 'tool_call_tag', closeOptional: true },
  { open: '<|tool_call_start|>', close: ['<|tool_call_end|>'], strategy: 'tool_call_tag' }, // LFM2 (and openPangu, below)
  { open: '<|START_ACTION|>', close: ['<|END_ACTION|>'], strategy: 'tool_call_tag' }, // Command R7B
  { open: '<|action_start|><|plugin|>', close: ['<|action_end|>'], strategy: 'tool_call_tag' }, // InternLM
  { open: 'functools[', close: [], strategy: 'tool_call_tag', closeOptional: true }, // Firefunction v2, Phi-4-mini
  { open: 'function call<|role_sep|>', close: [], strategy: 'tool_call_tag', closeOptional: true }, // GigaChat 3
  { open: '<|python_tag|>', close: ['<|eom_id|>', '<|eot_id|>'], strategy: 'python_tag', closeOptional: true, rawCodeTool: 'python' },
  { open: '<|python_start|>', close: ['<|python_end|>'], strategy: 'python_tag', closeOptional: true }, // Llama 4
  // tags the Hermes 2 Pro parser of llama.cpp also accepts around a {"name": …} object
  { open: '<tool>', close: ['</tool>'], strategy: 'tool_call_tag', weak: true },
  { open: '<tools>', close: ['</tools>'], strategy: 'tool_call_tag', weak: true },
  { open: '<json>', close: ['</json>'], strategy: 'tool_call_tag', weak: true },
  { open: '<JSON>', close: ['</JSON>'], strategy: 'tool_call_tag', weak: true },
  { open: '<xml>', close: ['</xml>'], strategy: 'tool_call_tag', weak: true },
  { open: '<response>', close: ['</response>'], strategy: 'tool_call_tag', weak: true },
];

const WRAPPER_OF = new Map(WRAPPERS.map((w) => [w.open, w]));

/**
 * Wrappers that a family writes too but whose reference parser reads only a whole JSON list of
 * calls in them, closing marker included: other bodies are repairs under that family. (A table of
 * its own rather than a wrapper field: one more wrapper shape slows every wrapper read.)
 */
const LIST_ONLY_FOR = new Map<string, ParserFamily>([['<|tool_call_start|>', 'openpangu']]);

export const taggedBlocks: FormatScanner = {
  triggers: WRAPPERS.map((w) => w.open),
  scan: scanTaggedBlocks,
};

function scanTaggedBlocks(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  // re-reading past the next opener (see below) is paid from a budget, so it stays linear
  let budget = 2 * text.length + 65536;
  for (const marker of ctx.markers) {
    const wrapper = WRAPPER_OF.get(marker);
    if (!wrapper) continue;
    const nextOpen = createFinder(text, wrapper.open);
    // `functools[` opens the list its body is: the bracket belongs to the body
    const bodyOffset = wrapper.open.endsWith('[') ? wrapper.open.length - 1 : wrapper.open.length;
    let at = nextOpen(0);
    while (at !== -1) {
      const bodyStart = at + bodyOffset;
      const following = nextOpen(at + wrapper.open.length);
      const regionEnd = following === -1 ? text.length : following;
      const region = text.slice(bodyStart, regionEnd);
      if (following !== -1 && skipSpace(region, 0) === region.length) {
        // a stuttered opener (<tool_call><tool_call>{…}) is dropped with the call that follows;
        // a run of them is one region
        const last = spans[spans.length - 1];
        if (last && last.calls.length === 0 && last.end === at) last.end = following;
        else spans.push({ start: at, end: following, strategy: null, calls: [], explicit: true, closed: true });
        at = following;
        continue;
      }
      let block = parseCallBlock(region, wrapper.close, regionEnd === text.length);
      if (!block && following !== -1 && budget > 0 && /^\s*[[{]/.test(region)) {
        // the next opener may sit inside one of this body's JSON strings ("content": "<tool_call>…")
        budget -= text.length - bodyStart;
        block = parseCallBlock(text.slice(bodyStart), wrapper.close, true);
      }
      if (wrapper.rawCodeTool && !isWholeCall(block, region, wrapper, ctx)) {
        spans.push(rawCodeSpan(text, at, bodyStart, regionEnd, wrapper));
        at = following;
        continue;
      }
      if (block && isBareName(block) && !plausibleBareCall(region, block, ctx)) block = undefined;
      // a list of calls the output cut off after its opening marker (`<|tool_call_start|>[{…}`, end of
      // text or the next opener): read as a cut-off call, as the token-pair formats read theirs
      const cutAt = block && !block.complete && !block.closedByTag && block.kind === 'json' ? cutOffEnd(region, block.end) : -1;
      if (cutAt !== -1 && block) {
        block.end = cutAt;
        const detail = wrapper.close.length && !wrapper.closeOptional ? `${wrapper.close[0]} missing: the call was cut off` : CUT_LIST;
        for (const call of block.calls) call.irregular ??= detail;
      }
      if (
        block &&
        block.calls.length > 0 &&
        (block.complete || block.closedByTag || cutAt !== -1) &&
        (!wrapper.weak || block.kind === 'json')
      ) {
        const strategy = strategyOf(block.kind, wrapper.strategy);
        // text after the body where the closing tag belongs: a misspelt closer the reference parser would not read
        if (!block.closedByTag && !wrapper.closeOptional && wrapper.close.length && region.slice(block.end).trim() !== '')
          for (const call of block.calls) call.irregular ??= `${wrapper.open} not closed by ${wrapper.close[0]}`;
        if (ctx.family !== undefined && LIST_ONLY_FOR.get(wrapper.open) === ctx.family && !isWholeCallList(text, bodyStart, block, wrapper))
          for (const call of block.calls)
            call.irregular ??= `${PARSER_FAMILY_NAMES[ctx.family]} reads only a whole JSON list of calls between ${wrapper.open} and ${wrapper.close[0]}`;
        spans.push({
          start: at,
          end: bodyStart + block.end,
          strategy,
          calls: block.calls,
          explicit: !wrapper.weak,
          closed: block.closedByTag || (wrapper.closeOptional === true && block.complete),
        });
      }
      at = block && bodyStart + block.end > regionEnd ? nextOpen(bodyStart + block.end) : following;
    }
  }
  return spans;
}

const CUT_LIST = 'the list of calls was cut off';

/**
 * Where a JSON list left open ends when nothing but a cut-off element follows it in the region
 * (whitespace, or `, {…` the output stopped inside): the region's end, or -1 when other text follows.
 */
function cutOffEnd(region: string, end: number): number {
  const i = skipSpace(region, end);
  return i === region.length || region.charCodeAt(i) === 44 /* , */ ? region.length : -1;
}

/** Whether the block is a whole JSON list of call objects closed by its tag, as openPangu's parser reads it (json.loads). */
function isWholeCallList(
  text: string,
  bodyStart: number,
  block: NonNullable<ReturnType<typeof parseCallBlock>>,
  wrapper: Wrapper,
): boolean {
  const end = bodyStart + block.end;
  const tag = block.closedByTag ? wrapper.close.find((t) => text.endsWith(t, end)) : undefined;
  if (tag === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(bodyStart, end - tag.length));
  } catch {
    return false;
  }
  return Array.isArray(value) && value.every((c) => isObject(c) && typeof c.name === 'string' && ('arguments' in c || 'parameters' in c));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** GLM's call without arguments: a tool name alone in the block. */
function isBareName(block: NonNullable<ReturnType<typeof parseCallBlock>>): boolean {
  return block.kind === 'arg_key_value' && block.calls.length === 1 && block.calls[0].textValues === undefined;
}

/**
 * A name alone in a block is a call only as GLM writes one — right after the opening tag — and,
 * with tools declared, only when it names one: `<tool_call> and </tool_call>` in prose is not.
 */
function plausibleBareCall(region: string, block: NonNullable<ReturnType<typeof parseCallBlock>>, ctx: ScanContext): boolean {
  return region.startsWith(block.calls[0].name) && (!ctx.hasTools || ctx.isKnownName(block.calls[0].name));
}

/** Whether a <|python_tag|> body is a call (JSON, or Python calls of declared tools) filling the block. */
function isWholeCall(block: ReturnType<typeof parseCallBlock>, region: string, wrapper: Wrapper, ctx: ScanContext): boolean {
  if (!block || block.calls.length === 0) return false;
  // a whole JSON call may be followed by prose (`<|python_tag|>{…} Done.`): the prose stays text
  if (!block.closedByTag && !(block.kind === 'json' && block.complete) && region.slice(block.end).trim() !== '') return false;
  return block.kind !== 'pythonic' || block.calls.every((c) => ctx.isKnownName(c.name));
}

/** The block's text as source code for the wrapper's code tool. */
function rawCodeSpan(text: string, at: number, bodyStart: number, regionEnd: number, wrapper: Wrapper): CallSpan {
  let codeEnd = regionEnd;
  let end = regionEnd;
  for (const tag of wrapper.close) {
    const i = text.indexOf(tag, bodyStart);
    if (i !== -1 && i < codeEnd) {
      codeEnd = i;
      end = i + tag.length;
    }
  }
  const code = text.slice(bodyStart, codeEnd).trim();
  if (code === '') return { start: at, end, strategy: null, calls: [], explicit: true, closed: true };
  const call = { name: wrapper.rawCodeTool as string, arguments: { code } };
  return { start: at, end, strategy: wrapper.strategy, calls: [call], explicit: true, closed: true };
}

/** JSON bodies are named after their wrapper; other bodies after their own format. */
function strategyOf(kind: BodyKind, wrapperStrategy: ExtractionStrategy): ExtractionStrategy {
  if (kind === 'json') return wrapperStrategy;
  if (kind === 'pythonic') return wrapperStrategy === 'python_tag' ? 'python_tag' : 'pythonic';
  if (wrapperStrategy === 'step3') return 'step3';
  return kind;
}
