// Python-style calls as Llama 3.2/4, LFM2, Olmo 3 and the <|python_tag|> format write them:
// `get_weather(city="Paris", days=3)`, `[a(x=1), b(y="z")]`, `brave_search.call(query="x")`.
// Values are Python/JSON literals; a quoted value always stays a string (`k="42"` is "42").
import { parseLiteral, parseLooseJson, skipSpace } from '../arguments/literal-parser';
import type { RawCall } from '../types';

export interface ParsedPythonCall extends RawCall {
  end: number;
}

/** The call without its parse position. */
export function withoutEnd(call: ParsedPythonCall): RawCall {
  return call.positional === undefined
    ? { name: call.name, arguments: call.arguments }
    : { name: call.name, arguments: call.arguments, positional: call.positional };
}

/** Records how far failed attempts read, so a scanner never re-reads the same region. */
export interface ParseProgress {
  furthest: number;
}

function reached(progress: ParseProgress | undefined, at: number): undefined {
  if (progress && at > progress.furthest) progress.furthest = at;
  return undefined;
}

// identifiers: ASCII, or any character from U+00C0 up (Python allows Unicode letters; this is
// cheaper than Unicode classes and a call to a name no tool has is dropped anyway)
const CALL_NAME = /[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*(?:\.[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*)*/y;
const KWARG = /([A-Za-z_\u00c0-\uffff][\w\u00c0-\uffff]*)\s*=(?!=)/y;

/** Reads `name(args)` at `pos`; `end` is just past the closing parenthesis. */
export function parsePythonCall(text: string, pos: number, progress?: ParseProgress, unwrapPrint = true): ParsedPythonCall | undefined {
  CALL_NAME.lastIndex = pos;
  const m = CALL_NAME.exec(text);
  if (!m) return reached(progress, pos);
  const i = skipSpace(text, pos + m[0].length);
  if (text[i] !== '(') return reached(progress, i);
  // Gemma 3's tool_code wraps the call in print(...)
  if (m[0] === 'print' && unwrapPrint) {
    const inner = parsePythonCall(text, skipSpace(text, i + 1), progress, false);
    const close = inner ? skipSpace(text, inner.end) : -1;
    if (inner && text[close] === ')') return { ...inner, end: close + 1 };
  }
  // Llama's built-in tools are written `brave_search.call(...)`
  const name = m[0].endsWith('.call') ? m[0].slice(0, -'.call'.length) : m[0];
  const args = parseArgumentList(text, i + 1, ')', progress);
  if (!args) return undefined;
  return { name, arguments: args.kwargs, positional: args.positional.length ? args.positional : undefined, end: args.end };
}

/**
 * Reads one or more calls at `pos`: a bracketed list `[a(), b()]`, or calls separated by commas,
 * semicolons or line breaks. Stops before anything that is not a call. In a bracketed list a
 * malformed call (`b(x=)`) is skipped and the calls around it still count.
 */
export function parsePythonCallList(
  text: string,
  pos: number,
  progress?: ParseProgress,
): { calls: ParsedPythonCall[]; end: number } | undefined {
  const start = skipSpace(text, pos);
  const bracketed = text[start] === '[';
  let i = bracketed ? start + 1 : start;
  const calls: ParsedPythonCall[] = [];
  for (;;) {
    i = skipSpace(text, i);
    const call = parsePythonCall(text, i, progress);
    if (call) {
      calls.push(call);
      i = skipSpace(text, call.end);
    } else {
      const skipped = bracketed ? endOfMalformedCall(text, i, progress) : -1;
      if (skipped === -1) break;
      i = skipSpace(text, skipped);
    }
    if (text[i] === ',' || text[i] === ';') i++;
  }
  if (calls.length === 0) return undefined;
  if (bracketed) {
    if (text[i] !== ']') return reached(progress, i);
    return { calls, end: i + 1 };
  }
  return { calls, end: calls[calls.length - 1].end };
}

/** Just past the closing parenthesis of a `name(…)` that did not parse, or -1. */
function endOfMalformedCall(text: string, pos: number, progress?: ParseProgress): number {
  CALL_NAME.lastIndex = pos;
  const m = CALL_NAME.exec(text);
  if (!m) return -1;
  let i = skipSpace(text, pos + m[0].length);
  if (text[i] !== '(') return -1;
  let depth = 0;
  let end = -1;
  for (; i < text.length && end === -1; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i += text[i] === '\\' ? 2 : 1);
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if ((c === ')' || c === ']' || c === '}') && --depth === 0) {
      end = c === ')' ? i + 1 : -2;
    }
  }
  // what was scanned is never scanned again, whether or not it closed
  reached(progress, end >= 0 ? end : i);
  return end >= 0 ? end : -1;
}

interface ArgumentList {
  kwargs: Record<string, unknown>;
  positional: unknown[];
  end: number;
}

function parseArgumentList(text: string, pos: number, close: string, progress?: ParseProgress): ArgumentList | undefined {
  const kwargs: Record<string, unknown> = {};
  const positional: unknown[] = [];
  let i = pos;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) return reached(progress, i);
    if (text[i] === close) return { kwargs, positional, end: i + 1 };
    KWARG.lastIndex = i;
    const kw = KWARG.exec(text);
    if (kw) {
      const value = parseLiteral(text, i + kw[0].length, { bareWords: true });
      if (!value.ok) return reached(progress, value.end);
      kwargs[kw[1]] = value.value;
      i = value.end;
    } else {
      // positional values must be real literals: `read_file(path)` in prose is not a call
      const value = parseLiteral(text, i);
      if (!value.ok) return reached(progress, value.end);
      positional.push(value.value);
      i = value.end;
    }
    i = skipSpace(text, i);
    if (text[i] === ',') i++;
    else if (text[i] !== close) return reached(progress, i);
  }
}

/**
 * Parses Python-style keyword arguments (`city="Paris", days=3, tags=['a'], on=True`) into an
 * object. A JSON/dict object is accepted as is. Never throws: on malformed input it returns the
 * pairs it could read before the problem.
 */
export function parsePythonArgs(argsStr: string): Record<string, unknown> {
  let text = typeof argsStr === 'string' ? argsStr.trim() : '';
  if (text === '') return {};
  if (text.startsWith('{')) {
    const obj = parseLooseJson(text);
    if (obj && typeof obj === 'object' && !Array.isArray(obj)) return obj as Record<string, unknown>;
  }
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1);
  const out: Record<string, unknown> = {};
  let i = 0;
  while (i < text.length) {
    i = skipSpace(text, i);
    KWARG.lastIndex = i;
    const kw = KWARG.exec(text);
    if (!kw) break;
    const value = parseLiteral(text, i + kw[0].length, { bareWords: true });
    if (!value.ok) break;
    out[kw[1]] = value.value;
    i = skipSpace(text, value.end);
    if (text[i] !== ',') break;
    i++;
  }
  return out;
}
