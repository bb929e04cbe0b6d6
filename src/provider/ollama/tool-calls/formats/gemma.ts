// Gemma 4 `<|tool_call>call:name{key:<|"|>text<|"|>,n:42}<tool_call|>` and FunctionGemma
// `<start_function_call>call:name{key:<escape>text<escape>}<end_function_call>`: object syntax
// with bare keys, and strings fenced by a delimiter token instead of quotes (so a `"` inside a
// string is just a character).
import { parseLiteral, skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

interface GemmaStyle {
  open: string;
  close: string;
  quote: string;
}

const STYLES: GemmaStyle[] = [
  { open: '<|tool_call>', close: '<tool_call|>', quote: '<|"|>' },
  { open: '<start_function_call>', close: '<end_function_call>', quote: '<escape>' },
];
const CALL = /\s*(?:call:)?([^\s{}<>()[\],:"']+)\s*(?=\{)/y;

export const gemma: FormatScanner = { triggers: STYLES.map((s) => s.open), scan: scanGemma };

function scanGemma(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  for (const style of STYLES) {
    if (!ctx.markers.has(style.open)) continue;
    const nextOpen = createFinder(text, style.open);
    let at = nextOpen(0);
    while (at !== -1) {
      const following = nextOpen(at + style.open.length);
      const region = text.slice(at + style.open.length, following === -1 ? text.length : following);
      const calls: RawCall[] = [];
      let i = 0;
      for (;;) {
        CALL.lastIndex = i;
        const m = CALL.exec(region);
        if (!m) break;
        const args = readArgs(region, i + m[0].length, style.quote);
        if (!args) break;
        calls.push({ name: m[1], arguments: args.value });
        i = args.end;
      }
      if (calls.length > 0) {
        const j = skipSpace(region, i);
        const closed = region.startsWith(style.close, j);
        const end = closed ? j + style.close.length : i;
        spans.push({ start: at, end: at + style.open.length + end, strategy: 'gemma', calls, explicit: true, closed });
      }
      at = following;
    }
  }
  return spans;
}

/** Rewrites the delimiter-quoted object at `pos` as JSON-ish text, then parses it. */
function readArgs(region: string, pos: number, quote: string): { value: Record<string, unknown>; end: number } | undefined {
  let out = '';
  let depth = 0;
  let i = pos;
  while (i < region.length) {
    if (region.startsWith(quote, i)) {
      const close = region.indexOf(quote, i + quote.length);
      if (close === -1) return undefined;
      out += JSON.stringify(region.slice(i + quote.length, close));
      i = close + quote.length;
      continue;
    }
    const c = region[i];
    if (c === '"') {
      // an ordinary JSON string: copy it through untouched
      let j = i + 1;
      while (j < region.length && region[j] !== '"') j += region[j] === '\\' ? 2 : 1;
      out += region.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    out += c;
    i++;
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) break;
  }
  if (depth !== 0) return undefined;
  const r = parseLiteral(out, 0);
  if (!r.ok || typeof r.value !== 'object' || r.value === null || Array.isArray(r.value)) return undefined;
  return { value: r.value as Record<string, unknown>, end: i };
}
