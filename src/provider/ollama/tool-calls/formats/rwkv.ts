// RWKV announces each call in Markdown: `**Tool Call:**` then a ```json fence holding one
// {"name", "arguments"} object. The label makes the fence a call (a bare fence is read only by
// the loose scanners, when tools are declared); a fence that does not hold a whole call is
// left as text, as the reference parser leaves it.
import { callsFromJson, readJsonValue } from '../json-calls';
import { createFinder } from '../marker-finder';
import type { CallSpan } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const LABEL = '**Tool Call:**';
const FENCE = /^\s*```(?:json)?[ \t]*\r?\n/;

export const rwkv: FormatScanner = { triggers: [LABEL], scan: scanRwkv };

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
