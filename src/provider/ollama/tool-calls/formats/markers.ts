// Markers left behind on their own: end-of-turn tokens and the section/closing tokens of call
// formats (a DeepSeek/Kimi section around its calls, a closing token after a call). Special
// tokens are never prose and always go; an XML-looking closing tag goes only when it directly
// follows a call, since a reply about markup may mention `</tool_call>` on purpose, and a broken
// block that stays in the text should stay whole. They yield nothing.
import { createFinder } from '../scan/marker-finder';
import type { MarkerSet } from '../scan/marker-scan';
import type { CallSpan } from '../types';
import { isSpaceCode } from '../scan/whitespace';

export const SPECIAL_TOKENS = [
  '<|eot_id|>',
  '<|eom_id|>',
  '<|im_end|>',
  '<|endoftext|>',
  '<|end▁of▁sentence|>',
  '<｜end▁of▁sentence｜>',
  '<|tool_call_end|>',
  '<|/tool_call|>',
  '[/TOOL_CALLS]',
  '<|python_end|>',
  '<seed:eos>', // Seed-OSS
  '[e~[', // MiniMax
  '<|assistant_end|>', // Apertus
  '<|observation|>', // GLM, after its calls
  '<|message_sep|>', // GigaChat 3, between its text and its call
  '<|eot|>', // Muse Glimmer
  '<|eom|>',
  '<|end_message|>', // Inkling
  '<|message_model|>',
  '<|START_RESPONSE|>', // Command A / R7B, around its answer
  '<|END_RESPONSE|>',
  '<|START_TEXT|>',
  '<|END_TEXT|>',
];
const CALL_CLOSING_TAGS = [
  '</tool_call>',
  '</tool_calls>',
  '</function_calls>',
  '</minimax:tool_call>',
  '</seed:tool_call>',
  '</TOOLCALL>',
  '</steptml:toolcall>',
  '</longcat_tool_call>',
  '</｜DSML｜function_calls>',
  '[END_TOOL_REQUEST]',
];

const SPECIAL = new Set(SPECIAL_TOKENS);

export function scanMarkers(text: string, markers: MarkerSet): CallSpan[] {
  const spans: CallSpan[] = [];
  if (markers.size === 0) return spans;
  for (const marker of markers) {
    if (!SPECIAL.has(marker)) continue;
    const next = createFinder(text, marker);
    for (let at = next(0); at !== -1; at = next(at + marker.length)) spans.push(markerSpan(at, at + marker.length));
  }
  return spans;
}

/** The opening tag of a section that holds calls, left when its calls were read on their own. */
const SECTION_OPENING_TAGS = ['<tool_calls>', '<function_calls>'];

/**
 * Closing tags right after a call (a doubled `</tool_call>`, a wrapper closed twice), and a
 * section's opening tag right before one (`<tool_calls>\n<tool_call>…`, Hunyuan, GLM-style).
 */
export function scanDanglingClosers(text: string, callSpans: readonly CallSpan[]): CallSpan[] {
  const spans: CallSpan[] = [];
  // loops over the tag lists rather than find(closure): a hostile reply has tens of thousands of spans
  for (const span of callSpans) {
    if (span.calls.length === 0) continue;
    let b = span.start;
    while (b > 0 && span.start - b < 64 && isSpaceCode(text.charCodeAt(b - 1))) b--;
    if (b > 0 && text.charCodeAt(b - 1) === 62 /* > */) {
      for (const tag of SECTION_OPENING_TAGS) {
        if (!text.endsWith(tag, b)) continue;
        spans.push(markerSpan(b - tag.length, b));
        break;
      }
    }
    let i = span.end;
    while (i < text.length && i - span.end < 64 && isSpaceCode(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (c !== 60 /* < */ && c !== 91 /* [ */) continue;
    for (const tag of CALL_CLOSING_TAGS) {
      if (!text.startsWith(tag, i)) continue;
      spans.push(markerSpan(i, i + tag.length));
      break;
    }
  }
  return spans;
}

function markerSpan(start: number, end: number): CallSpan {
  return { start, end, strategy: null, calls: [], explicit: true, closed: true };
}
