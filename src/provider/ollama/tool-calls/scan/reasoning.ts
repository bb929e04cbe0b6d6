// Separates reasoning from the answer before any call is looked for: a model that drafts a call
// while thinking ("maybe <tool_call>{…}</tool_call>?") has not made it. Handles <think> blocks
// (also when the prompt opened the block, so only `…</think>` appears, and when the output ends
// inside one), Seed-OSS's <seed:think>, Apertus's inner channel, gpt-oss's analysis channel and
// Gemma 4's thought channel. A harmony analysis message addressed to a tool is a call, not
// reasoning, and is left in place.
import { createFinder, type MarkerFinder } from './marker-finder';
import { joinPieces } from './text-join';

export interface ReasoningSplit {
  /** the content without reasoning */
  visible: string;
  /** each reasoning block, trimmed */
  thinking: string[];
}

interface ReasoningBlock {
  open: string;
  /** the first of these ends the block; none found means it runs to the end */
  close: string[];
  /** whether the closing marker is part of the block (harmony's <|start|> begins the next message) */
  consumeClose: boolean[];
  /** written as ordinary tags, so an unclosed one in mid-answer is more likely prose about the tag */
  textual?: boolean;
  harmony?: boolean;
  /**
   * Left unclosed, the block ends at the first of these call openers: the family's reference
   * parser (vLLM's Qwen3 and GLM-4.5 reasoning parsers) reads a reply without its closer as content,
   * calls included. Without this list an unclosed block is reasoning to the end (DeepSeek R1, Seed-OSS,
   * llama.cpp's try_parse_reasoning), and a call in it is no call.
   */
  unclosedEndsAt?: readonly string[];
}

/** Hermes/Qwen3/GLM wrappers and Qwen3-Coder's element: the calls a Qwen3-style <think> may run into. */
const QWEN_CALL_OPENERS = ['<tool_call>', '<function='];

const HARMONY_ENDS = ['<|end|>', '<|start|>', '<|channel|>', '<|return|>', '<|call|>'];
const HARMONY_ANALYSIS = '<|channel|>analysis<|message|>';

const BLOCKS: ReasoningBlock[] = [
  { open: '<think>', close: ['</think>'], consumeClose: [true], textual: true, unclosedEndsAt: QWEN_CALL_OPENERS },
  { open: '<thinking>', close: ['</thinking>'], consumeClose: [true], textual: true, unclosedEndsAt: QWEN_CALL_OPENERS },
  { open: '◁think▷', close: ['◁/think▷'], consumeClose: [true], textual: true },
  { open: '<seed:think>', close: ['</seed:think>'], consumeClose: [true] },
  { open: '<|inner_prefix|>', close: ['<|inner_suffix|>'], consumeClose: [true] },
  { open: '<|channel>thought', close: ['<channel|>'], consumeClose: [true] },
  { open: '<|START_THINKING|>', close: ['<|END_THINKING|>'], consumeClose: [true] }, // Command A / R7B
  { open: '[THINK]', close: ['[/THINK]'], consumeClose: [true] }, // Magistral, Ministral 3
  // K2 Horizon / K2-V3 at its three effort levels
  { open: '<ifm|think>', close: ['</ifm|think>'], consumeClose: [true] },
  { open: '<ifm|think_fast>', close: ['</ifm|think_fast>'], consumeClose: [true] },
  { open: '<ifm|think_faster>', close: ['</ifm|think_faster>'], consumeClose: [true] },
  { open: HARMONY_ANALYSIS, close: HARMONY_ENDS, consumeClose: [true, false, false, true, true], harmony: true },
];

/** Closers that, alone at the start, mean the prompt opened the block. */
const LONE_CLOSERS: Array<[closer: string, opener: string]> = [
  ['</think>', '<think>'],
  ['</thinking>', '<thinking>'],
  ['◁/think▷', '◁think▷'],
  ['</seed:think>', '<seed:think>'],
  ['<|inner_suffix|>', '<|inner_prefix|>'],
  ['<|END_THINKING|>', '<|START_THINKING|>'], // Cohere2 MoE: the prompt opens the block
  ['</ifm|think>', '<ifm|think>'],
];

/** The marker a block is found by (harmony's analysis opener by its channel token). */
function markerOf(block: ReasoningBlock): string {
  return block.harmony ? '<|channel|>' : block.open;
}

/** Every literal whose presence means there may be reasoning to take out. */
export const REASONING_MARKERS = [...new Set([...BLOCKS.map(markerOf), ...LONE_CLOSERS.map(([c]) => c)])];

/**
 * `present`, when given, holds the markers known to occur in `content` (blocks whose markers do
 * not occur are not looked for).
 */
export function splitReasoning(content: string, present?: ReadonlySet<string>): ReasoningSplit {
  const thinking: string[] = [];
  const pieces: string[] = [];
  let cursor = 0;
  const blocks = present ? BLOCKS.filter((b) => present.has(markerOf(b))) : BLOCKS;

  for (const [closer, opener] of LONE_CLOSERS) {
    if (present && !present.has(closer)) continue;
    const at = content.indexOf(closer);
    const openAt = at === -1 ? -1 : content.indexOf(opener);
    if (at !== -1 && (openAt === -1 || openAt > at)) {
      thinking.push(content.slice(0, at).trim());
      cursor = at + closer.length;
      break;
    }
  }

  const opens = blocks.map((b) => createFinder(content, b.open));
  const closes = blocks.map((b) => b.close.map((c) => createFinder(content, c)));
  let searchFrom = cursor;
  for (;;) {
    let which = -1;
    let at = -1;
    opens.forEach((find, k) => {
      const i = find(searchFrom);
      if (i !== -1 && (at === -1 || i < at)) {
        at = i;
        which = k;
      }
    });
    if (which === -1) break;
    const block = blocks[which];
    let blockStart = at;
    if (block.harmony) {
      const header = harmonyHeaderStart(content, at, cursor);
      if (header.addressed) {
        // an analysis message with a recipient is a tool call (gpt-oss may call from analysis)
        searchFrom = at + block.open.length;
        continue;
      }
      blockStart = header.start;
    }
    const bodyStart = at + block.open.length;
    let { end, bodyEnd } = findClose(closes[which], block, bodyStart, content.length);
    const unclosed = bodyEnd === content.length && end === content.length;
    // an unclosed block is reasoning to the end only when it leads the output
    if (block.textual && unclosed && content.slice(cursor, at).trim() !== '') break;
    if (unclosed && block.unclosedEndsAt) end = bodyEnd = firstOf(content, block.unclosedEndsAt, bodyStart, content.length);
    pieces.push(content.slice(cursor, blockStart));
    thinking.push(content.slice(bodyStart, bodyEnd).trim());
    cursor = end;
    searchFrom = end;
  }
  pieces.push(content.slice(cursor));
  return { visible: cursor === 0 && pieces.length === 1 ? content : joinPieces(pieces), thinking: thinking.filter((t) => t !== '') };
}

/**
 * Where the harmony message holding the channel marker at `at` begins (its `<|start|>role`, or
 * a role-position recipient the reply opened with), and whether it is addressed to a recipient.
 */
function harmonyHeaderStart(content: string, at: number, floor: number): { start: number; addressed: boolean } {
  const lookFrom = Math.max(floor, at - 256);
  const before = content.slice(lookFrom, at);
  const startAt = before.lastIndexOf('<|start|>');
  const lastEnd = Math.max(before.lastIndexOf('<|end|>'), before.lastIndexOf('<|call|>'), before.lastIndexOf('<|return|>'));
  const head = startAt !== -1 && startAt > lastEnd ? before.slice(startAt) : before.slice(lastEnd === -1 ? 0 : lastEnd);
  if (/(?:^|[\s>])to=\S/.test(head)) return { start: at, addressed: true };
  if (startAt !== -1 && startAt > lastEnd && /^<\|start\|>assistant\s*$/.test(head)) return { start: lookFrom + startAt, addressed: false };
  return { start: at, addressed: false };
}

/** The earliest occurrence of any of `needles` at or after `from`, else `otherwise`. */
function firstOf(content: string, needles: readonly string[], from: number, otherwise: number): number {
  let best = otherwise;
  for (const n of needles) {
    const i = content.indexOf(n, from);
    if (i !== -1 && i < best) best = i;
  }
  return best;
}

function findClose(closes: MarkerFinder[], block: ReasoningBlock, from: number, length: number): { end: number; bodyEnd: number } {
  let bodyEnd = length;
  let end = length;
  closes.forEach((find, k) => {
    const i = find(from);
    if (i !== -1 && i < bodyEnd) {
      bodyEnd = i;
      end = block.consumeClose[k] ? i + block.close[k].length : i;
    }
  });
  return { end, bodyEnd };
}
