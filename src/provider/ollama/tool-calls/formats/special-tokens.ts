// Calls written with a model's own special tokens:
//   DeepSeek R1/V3:  <｜tool▁call▁begin｜>function<｜tool▁sep｜>name\n```json\n{…}\n```<｜tool▁call▁end｜>
//   DeepSeek V3.1:   <｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
//   Kimi K2:         <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>
// DeepSeek's bars appear both full-width (｜) and ASCII (|); both are accepted.
import { readJsonValue } from '../json-calls';
import { skipSpace } from '../literal-parser';
import { createFinder } from '../marker-finder';
import type { CallSpan, RawCall } from '../types';

const DS_BEGIN = '<|tool▁call▁begin|>';
const DS_SEP = '<|tool▁sep|>';
const DS_END = '<|tool▁call▁end|>';
const KIMI_BEGIN = '<|tool_call_begin|>';
const KIMI_ARGS = '<|tool_call_argument_begin|>';
const KIMI_END = '<|tool_call_end|>';

export function scanSpecialTokens(text: string): CallSpan[] {
  // full-width and ASCII bars are one UTF-16 unit each, so offsets survive the substitution
  const ascii = text.includes('｜') ? text.replace(/｜/g, '|') : text;
  return [...scan(ascii, DS_BEGIN, DS_END, 'deepseek', parseDeepSeek), ...scan(ascii, KIMI_BEGIN, KIMI_END, 'kimi', parseKimi)];
}

function scan(
  text: string,
  begin: string,
  end: string,
  strategy: 'deepseek' | 'kimi',
  parse: (region: string) => { call: RawCall; end: number } | undefined,
): CallSpan[] {
  const spans: CallSpan[] = [];
  const nextBegin = createFinder(text, begin);
  let at = nextBegin(0);
  while (at !== -1) {
    const following = nextBegin(at + begin.length);
    const region = text.slice(at + begin.length, following === -1 ? text.length : following);
    const parsed = parse(region);
    if (parsed) {
      const j = skipSpace(region, parsed.end);
      const closed = region.startsWith(end, j);
      spans.push({
        start: at,
        end: at + begin.length + (closed ? j + end.length : parsed.end),
        strategy,
        calls: [parsed.call],
        explicit: true,
        closed,
      });
    }
    at = following;
  }
  return spans;
}

function parseDeepSeek(region: string): { call: RawCall; end: number } | undefined {
  const sep = region.indexOf(DS_SEP);
  if (sep === -1) return undefined;
  const head = region.slice(0, sep).trim();
  let name: string;
  let i = sep + DS_SEP.length;
  if (head === '' || head === 'function') {
    // R1 style: the name follows the separator, on its own line
    const m = /^[ \t]*([^\s`{]+)/.exec(region.slice(i, i + 300));
    if (!m) return undefined;
    name = m[1];
    i += m[0].length;
  } else {
    name = head;
  }
  const args = readArgs(region, i);
  return args && { call: { name, arguments: args.value }, end: args.end };
}

function parseKimi(region: string): { call: RawCall; end: number } | undefined {
  const argsAt = region.indexOf(KIMI_ARGS);
  if (argsAt === -1) return undefined;
  // functions.get_weather:0 — the namespace and the call index are protocol, not part of the name
  const name = region
    .slice(0, argsAt)
    .trim()
    .replace(/^functions\./, '')
    .replace(/:\d+$/, '');
  if (name === '') return undefined;
  const args = readArgs(region, argsAt + KIMI_ARGS.length);
  return args && { call: { name, arguments: args.value }, end: args.end };
}

/** A JSON object, possibly in a ```json fence. */
function readArgs(region: string, pos: number): { value: Record<string, unknown>; end: number } | undefined {
  let i = skipSpace(region, pos);
  const fenced = region.startsWith('```', i);
  if (fenced) {
    const nl = region.indexOf('\n', i);
    if (nl === -1) return undefined;
    i = nl + 1;
  }
  const v = readJsonValue(region, i);
  if (!v || typeof v.value !== 'object' || v.value === null || Array.isArray(v.value)) return undefined;
  const value = v.value as Record<string, unknown>;
  let end = v.end;
  if (fenced) {
    const j = skipSpace(region, end);
    if (region.startsWith('```', j)) end = j + 3;
  }
  return { value, end };
}
