// Separates reasoning from the answer before any call is looked for: a model that drafts a call
// while thinking ("maybe <tool_call>{…}</tool_call>?") has not made it. Handles <think> blocks
// (also when the prompt opened the block, so only `…</think>` appears, and when the output ends
// inside one), gpt-oss's analysis channel and Gemma 4's thought channel.
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
}

const HARMONY_ENDS = ['<|end|>', '<|start|>', '<|channel|>', '<|return|>', '<|call|>'];

const BLOCKS: ReasoningBlock[] = [
  { open: '<think>', close: ['</think>'], consumeClose: [true] },
  { open: '<thinking>', close: ['</thinking>'], consumeClose: [true] },
  { open: '◁think▷', close: ['◁/think▷'], consumeClose: [true] },
  { open: '<|channel>thought', close: ['<channel|>'], consumeClose: [true] },
  { open: '<|channel|>analysis<|message|>', close: HARMONY_ENDS, consumeClose: [true, false, false, true, true] },
];

export function splitReasoning(content: string): ReasoningSplit {
  const thinking: string[] = [];
  const pieces: string[] = [];
  let cursor = 0;

  // the prompt may have opened the block: "reasoning…</think>answer"
  for (const closer of ['</think>', '</thinking>', '◁/think▷']) {
    const at = content.indexOf(closer);
    const opener = closer.replace('/', '');
    if (at !== -1 && !content.slice(0, at).includes(opener)) {
      thinking.push(content.slice(0, at).trim());
      cursor = at + closer.length;
      break;
    }
  }

  const opens = BLOCKS.map((b) => createFinder(content, b.open));
  const closes = BLOCKS.map((b) => b.close.map((c) => createFinder(content, c)));
  for (;;) {
    let which = -1;
    let at = -1;
    opens.forEach((find, k) => {
      const i = find(cursor);
      if (i !== -1 && (at === -1 || i < at)) {
        at = i;
        which = k;
      }
    });
    if (which === -1) break;
    const block = BLOCKS[which];
    const bodyStart = at + block.open.length;
    // an unclosed block is reasoning to the end only when it leads the output; in mid-answer an
    // unclosed <think> is more likely prose about the tag
    const { end, bodyEnd } = findClose(closes[which], block, bodyStart, content.length);
    if (bodyEnd === content.length && end === content.length && content.slice(cursor, at).trim() !== '' && which < 3) {
      break;
    }
    let blockStart = at;
    // harmony headers may carry the role first: <|start|>assistant<|channel|>analysis…
    const prefix = '<|start|>assistant';
    if (which === 4 && content.startsWith(prefix, at - prefix.length)) blockStart = at - prefix.length;
    pieces.push(content.slice(cursor, blockStart));
    thinking.push(content.slice(bodyStart, bodyEnd).trim());
    cursor = end;
  }
  pieces.push(content.slice(cursor));
  return { visible: cursor === 0 ? content : joinPieces(pieces), thinking: thinking.filter((t) => t !== '') };
}

function findClose(
  closes: MarkerFinder[],
  block: ReasoningBlock,
  from: number,
  length: number,
): { end: number; bodyEnd: number } {
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
