// Apertus writes its calls as one JSON list between special tokens, each call an object whose
// only key is the tool's name: `<|tools_prefix|>[{"get_weather": {"city": "Bern"}}]<|tools_suffix|>`.
// The usual {"name", "arguments"} objects are read too. A malformed element is skipped; its
// siblings still count. (Its reasoning, <|inner_prefix|>…<|inner_suffix|>, was taken out already.)
import { CALL_KEYS, callsFromJson, PSEUDO_JSON, readCallList, readJsonValue, readTolerantly } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const OPEN = '<|tools_prefix|>';
const CLOSE = '<|tools_suffix|>';

const CALL_KEY_SET = new Set(CALL_KEYS);

export const apertus: FormatScanner = { triggers: [OPEN], scan: scanApertus };

function scanApertus(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const nextOpen = createFinder(text, OPEN);
  for (let at = nextOpen(0); at !== -1; at = nextOpen(at + OPEN.length)) {
    const following = nextOpen(at + OPEN.length);
    const region = text.slice(at + OPEN.length, following === -1 ? text.length : following);
    const i = skipSpace(region, 0);
    let calls: RawCall[] | undefined;
    let end = i;
    if (region[i] === '[') {
      const list = readCallList(region, i, shortFormCalls);
      if (list) {
        calls = list.calls;
        end = list.end;
      }
    } else if (region[i] === '{') {
      const v = readJsonValue(region, i);
      calls = v && shortFormCalls(v.value);
      if (v) end = v.end;
    }
    if (!calls || calls.length === 0) continue;
    const j = skipSpace(region, end);
    const closed = region.startsWith(CLOSE, j);
    spans.push({
      start: at,
      end: at + OPEN.length + (closed ? j + CLOSE.length : end),
      strategy: 'apertus',
      calls,
      explicit: true,
      closed,
    });
  }
  return spans;
}

/** `{"tool_name": {args}}`, or a call object in one of the usual shapes. */
function shortFormCalls(value: unknown): RawCall[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const args = (value as Record<string, unknown>)[keys[0]];
    // a key no usual shape has is the tool's name: no need to try the usual shapes first
    const usual = CALL_KEY_SET.has(keys[0]) ? callsFromJson(value) : undefined;
    if (usual) return usual; // {"function": {"name": …}} and the like
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
      const call: RawCall = { name: keys[0], arguments: args as Record<string, unknown> };
      if (readTolerantly(value)) call.irregular = `call ${PSEUDO_JSON}`;
      return [call];
    }
    return undefined;
  }
  return callsFromJson(value);
}
