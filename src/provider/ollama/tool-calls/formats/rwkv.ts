// RWKV announces each call in Markdown: `**Tool Call:**` then a ```json fence holding one
// {"name", "arguments"} object. The label makes the fence a call (a bare fence is read only by
// the loose scanners, when tools are declared); a fence that does not hold a whole call is
// left as text, as the reference parser leaves it. Without any label, RWKV's parser also reads
// each ```json fence that holds a call of a declared tool: strict reads those when the model is
// known to be RWKV (rwkvReadsBareFence).
import { callsFromJson, readJsonValue } from '../calls/json-calls';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan } from '../types';
import { isSpaceCode } from '../scan/whitespace';
import type { FormatScanner, ScanContext } from './scan-context';

const LABEL = '**Tool Call:**';
const FENCE = /^\s*```(?:json)?[ \t]*\r?\n/;

export const rwkv: FormatScanner = { triggers: [LABEL], scan: scanRwkv };

const JSON_FENCE = '```json';

/**
 * Whether RWKV's parser reads this bare JSON call: a call object that fills a ```json fence, in a
 * reply with no **Tool Call:** label (with one, it reads only labelled fences).
 */
export function rwkvReadsBareFence(text: string, span: CallSpan): boolean {
  if (text.charCodeAt(span.start) !== 123 /* { */ || text.includes(LABEL)) return false;
  let before = span.start;
  while (before > 0 && isSpaceCode(text.charCodeAt(before - 1))) before--;
  let after = span.end;
  while (after < text.length && isSpaceCode(text.charCodeAt(after))) after++;
  return text.endsWith(JSON_FENCE, before) && text.startsWith('```', after);
}

function scanRwkv(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const next = createFinder(text, LABEL);
  for (let at = next(0); at !== -1; at = next(at + LABEL.length)) {
    const after = at + LABEL.length;
    const fence = FENCE.exec(text.slice(after, after + 64));
    if (!fence) continue;
    const start = after + fence[0].length;
    // the fence's JSON ends before the next label: reading no further keeps a reply of many broken fences linear
    const following = next(after);
    const region = following === -1 ? text.slice(start) : text.slice(start, following);
    const v = readJsonValue(region, 0);
    if (!v) continue;
    const close = /^\s*```/.exec(region.slice(v.end, v.end + 64));
    const calls = callsFromJson(v.value);
    if (!close || !calls || calls.length !== 1) continue;
    spans.push({ start: at, end: start + v.end + close[0].length, strategy: 'fenced_json', calls, explicit: true, closed: true });
  }
  return spans;
}
