// ReAct-style calls: `Action: read_file` then `Action Input: {"path": "a.txt"}` (LangChain,
// many fine-tunes), Command R's `Action: ```json [{"tool_name": …}]```, and Qwen-Agent's
// `✿FUNCTION✿: name` / `✿ARGS✿: {…}`. The input runs until the next Observation/Thought/Action
// line. Input that is not JSON is kept as text and mapped to the tool's parameter later.
import { callsFromJson, readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { createFinder, findFirst, finders } from '../scan/marker-finder';
import { parsePythonCall } from '../calls/python-calls';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const LABELS: Array<{ action: string; input: string; lineStart: boolean }> = [
  { action: 'Action:', input: 'Action Input:', lineStart: true },
  // Qwen-Agent's markers are special strings, never prose: no need to sit at a line start
  { action: '✿FUNCTION✿:', input: '✿ARGS✿:', lineStart: false },
];
const STOPS = ['\nObservation:', '\nThought:', '\nAction:', '\nFinal Answer:', '\n✿RESULT✿', '\n✿FUNCTION✿', '\n✿RETURN✿'];
const PLAIN_NAME = /^[\p{L}\p{N}_.\-:/]+$/u;
/** a name line longer than this is prose, not a tool name (and is never scanned further) */
const MAX_NAME_LINE = 300;

export const react: FormatScanner = { triggers: LABELS.map((l) => l.action), scan: scanReact };

function scanReact(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const stops = finders(text, STOPS);
  const nextLineBreak = createFinder(text, '\n');
  for (const label of LABELS) {
    if (!ctx.markers.has(label.action)) continue;
    const next = createFinder(text, label.action);
    let at = next(0);
    while (at !== -1) {
      const lineStart = lineStartOf(text, at);
      // one action's text ends at the next stop line or the next label, whichever comes first
      const following = next(at + label.action.length);
      const stop = Math.min(findFirst(stops, at)?.at ?? text.length, following === -1 ? text.length : following);
      const span = !label.lineStart || lineStart !== -1 ? readAction(ctx, at, label, stops, stop, nextLineBreak) : undefined;
      if (span && lineStart !== -1) span.start = lineStart;
      if (span) spans.push(span);
      at = next(span ? span.end : at + label.action.length);
    }
  }
  return spans;
}

/** Where the label's line starts (markdown decoration such as `**` included), or -1 when it is mid-line. */
function lineStartOf(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && at - i <= 8 && (text[i] === '*' || text[i] === ' ' || text[i] === '\t' || text[i] === '#')) i--;
  return i < 0 || text[i] === '\n' ? i + 1 : -1;
}

function skipDecoration(text: string, i: number): number {
  while (i < text.length && (text[i] === '*' || text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

function readAction(
  ctx: ScanContext,
  at: number,
  label: { action: string; input: string; lineStart: boolean },
  stops: ReturnType<typeof finders>,
  stop: number,
  nextLineBreak: (from: number) => number,
): CallSpan | undefined {
  const { text } = ctx;
  const start = skipDecoration(text, at + label.action.length);
  if (start >= stop) return undefined;
  const lineBreak = nextLineBreak(start);
  const lineEnd = Math.min(stop, lineBreak === -1 ? text.length : lineBreak);
  if (lineEnd - start > MAX_NAME_LINE && !/^\s*(?:[{[]|```)/.test(text.slice(start, start + 16))) return undefined;
  const line = text.slice(start, lineEnd).trim();

  if (line.startsWith('{') || line.startsWith('[') || line.startsWith('```')) {
    const json = readJsonArgs(text.slice(start, stop));
    const calls = json && callsFromJson(json.value);
    return calls ? { start: at, end: start + json.end, strategy: 'react', calls, explicit: true, closed: true } : undefined;
  }
  const name = line.replace(/^[`'"*]+|[`'"*.:]+$/g, '');
  if (name === '') return undefined;
  let call: RawCall;
  if (name.includes('(')) {
    const parsed = parsePythonCall(name, 0);
    if (!parsed || skipSpace(name, parsed.end) !== name.length) return undefined;
    call = { name: parsed.name, arguments: parsed.arguments, positional: parsed.positional };
  } else if (PLAIN_NAME.test(name)) {
    call = { name, arguments: {} };
  } else {
    return undefined; // "Action: review the PR" is a sentence, not a call
  }

  // the input, on the next non-blank line
  let i = skipSpace(text, lineEnd);
  i = skipDecoration(text, i);
  if (i >= stop || !text.startsWith(label.input, i)) {
    // an action with no input counts only for a declared tool: skip the rest early
    if (ctx.hasTools && !ctx.isKnownName(call.name)) return undefined;
    return { start: at, end: lineEnd, strategy: 'react', calls: [call], explicit: true, closed: false };
  }
  const valueStart = skipDecoration(text, i + label.input.length);
  const valueStop = Math.min(findFirst(stops, valueStart)?.at ?? text.length, stop);
  if (valueStart > valueStop) return undefined;
  const raw = text.slice(valueStart, valueStop);
  const json = readJsonArgs(raw);
  if (json && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value)) {
    call.arguments = { ...call.arguments, ...(json.value as Record<string, unknown>) };
    return { start: at, end: valueStart + json.end, strategy: 'react', calls: [call], explicit: true, closed: true };
  }
  const trimmed = raw.trim();
  if (/^(?:[{[]|```)/.test(trimmed)) return undefined; // JSON that does not parse is a broken call, not text input
  const input = trimmed.replace(/^(["'])([\s\S]*)\1$/, '$2');
  if (input !== '') call.inputText = input;
  return { start: at, end: valueStart + raw.trimEnd().length, strategy: 'react', calls: [call], explicit: true, closed: true };
}

/** A JSON value at the start of `raw`, possibly fenced; `end` includes the closing fence. */
function readJsonArgs(raw: string): { value: unknown; end: number } | undefined {
  let i = skipSpace(raw, 0);
  const fenced = raw.startsWith('```', i);
  if (fenced) {
    const nl = raw.indexOf('\n', i);
    if (nl === -1) return undefined;
    i = nl + 1;
  }
  const v = readJsonValue(raw, i);
  if (!v) return undefined;
  let end = v.end;
  if (fenced) {
    const j = skipSpace(raw, end);
    if (raw.startsWith('```', j)) end = j + 3;
  }
  return { value: v.value, end };
}
