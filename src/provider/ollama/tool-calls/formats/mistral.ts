// Mistral's [TOOL_CALLS] marker in its three shapes: a JSON array (`[TOOL_CALLS] [{…}]`, maybe
// closed by [/TOOL_CALLS]), name + [ARGS] (`[TOOL_CALLS]get_weather[ARGS]{…}`, v11 tokenizers),
// and name + [CALL_ID]id + [ARGS] (Magistral/Devstral). The format has no closing marker, so the
// call ends where its JSON ends and text after it stays text. A malformed element of a list, or
// a name[ARGS] pair whose JSON is broken, is skipped and the calls around it still count.
import { callsFromJson, readCallList, readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const MARKER = '[TOOL_CALLS]';
const CLOSE = '[/TOOL_CALLS]';
const NAME = /([^\s[\]{}()"',]+)\s*(?:\[CALL_ID\]\s*[^\s[{]*\s*)?(?:\[ARGS\])?\s*(?=\{)/y;

export const mistral: FormatScanner = { triggers: [MARKER], scan: (ctx: ScanContext) => scanMistral(ctx.text) };

function scanMistral(text: string): CallSpan[] {
  const spans: CallSpan[] = [];
  const nextMarker = createFinder(text, MARKER);
  let at = nextMarker(0);
  while (at !== -1) {
    const following = nextMarker(at + MARKER.length);
    const region = text.slice(at + MARKER.length, following === -1 ? text.length : following);
    const parsed = parseRegion(region);
    if (parsed) {
      let end = parsed.end;
      const j = skipSpace(region, end);
      if (region.startsWith(CLOSE, j)) end = j + CLOSE.length;
      spans.push({ start: at, end: at + MARKER.length + end, strategy: 'mistral', calls: parsed.calls, explicit: true, closed: true });
    }
    at = following;
  }
  return spans;
}

function parseRegion(region: string): { calls: RawCall[]; end: number } | undefined {
  let i = skipSpace(region, 0);
  if (region[i] === '[') {
    const list = readCallList(region, i);
    return list && { calls: list.calls, end: list.end };
  }
  if (region[i] === '{') {
    const v = readJsonValue(region, i);
    const calls = v && callsFromJson(v.value);
    return v && calls ? { calls, end: v.end } : undefined;
  }
  // name[ARGS]{…}, possibly several in a row after one marker
  const calls: RawCall[] = [];
  let end = i;
  for (;;) {
    NAME.lastIndex = i;
    const m = NAME.exec(region);
    if (!m) break;
    const v = readJsonValue(region, i + m[0].length);
    if (v && typeof v.value === 'object' && v.value !== null && !Array.isArray(v.value)) {
      calls.push({ name: m[1], arguments: v.value as Record<string, unknown> });
      end = v.end;
    } else {
      // broken arguments: skip to the next name[ARGS], if there is one
      const next = region.indexOf('[ARGS]', i + m[0].length);
      const brokenEnd = next === -1 ? -1 : region.lastIndexOf('}', next);
      if (brokenEnd === -1 || brokenEnd < i + m[0].length) break;
      end = brokenEnd + 1;
    }
    i = skipSpace(region, end);
  }
  return calls.length ? { calls, end } : undefined;
}
