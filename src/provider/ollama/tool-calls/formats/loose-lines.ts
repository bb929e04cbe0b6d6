// Calls written as lines of their own, with no marker around them (loose formats: only names of
// declared tools count):
//   - Python style, as Llama 3.2/4 answer: `get_weather(city="Paris")` or `[a(x=1), b(y=2)]`
//   - a tool name on one line and its JSON arguments right after (`read_file\n{"path": "a"}`),
//     as Qwen 3.5 and Kimi sometimes split them.
// A call must fill its line: `x = read_file(p)` or "use read_file(path) to…" in prose is not one.
import type { JsonIndex } from '../scan/bracket-index';
import { callsFromJson } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { parsePythonCallList, withoutEnd, type ParseProgress } from '../calls/python-calls';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';

// [ \t]* rather than \s*: a regex run from every line start must not read past its line. Names
// are matched loosely (any non-ASCII character counts as a letter, which is cheaper than Unicode
// classes): a loose call must name a declared tool anyway.
const PYTHONIC_START = /\[?[ \t]*([A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*(?:\.[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*)*)[ \t]*\(/y;
const NAME_LINE = /[`*'"]*([A-Za-z_\u00c0-\uffff][\w\-./\u00c0-\uffff]*)[`*'"]*[ \t]*:?[ \t]*/y;
const BULLET = /(?:[-*•][ \t]+|\d+[.)][ \t]+)?`?/y;
const NON_BLANK = /[^ \t]/g;

export function scanLooseLines(
  text: string,
  index: JsonIndex,
  isKnownName: (name: string) => boolean,
  isKnown: (call: RawCall) => boolean,
): CallSpan[] {
  const spans: CallSpan[] = [];
  const progress: ParseProgress = { furthest: 0 };
  const nextParen = createFinder(text, '(');
  const nextCurly = createFinder(text, '{');
  const nextBreak = createFinder(text, '\n');
  // first non-space position at or after a (forward-moving) position, remembered
  let nonSpace = -1;
  const firstNonSpace = (pos: number) => (nonSpace >= pos ? nonSpace : (nonSpace = skipSpace(text, pos)));
  let lineStart = 0;
  while (lineStart < text.length) {
    let nl = nextBreak(lineStart);
    if (nl === -1) nl = text.length;
    // a call line holds a parenthesis or a brace, or is followed by one (or by a fence)
    const paren = nextParen(lineStart);
    const curly = nextCurly(lineStart);
    const after = text[firstNonSpace(nl)];
    const hasParen = paren !== -1 && paren < nl;
    // a name line for JSON arguments holds a brace or is followed by one (or by a fence)
    const jsonAfterName = (curly !== -1 && curly < nl) || after === '{' || after === '`';
    if (!hasParen && !jsonAfterName) {
      if (paren === -1 && curly === -1) break;
      lineStart = nl + 1;
      continue;
    }
    // the line's first non-blank character (a native search: masked regions are long runs of blanks)
    NON_BLANK.lastIndex = lineStart;
    const p = Math.min(NON_BLANK.exec(text)?.index ?? nl, nl);
    let at = p;
    const first = text[p];
    if (first === '-' || first === '*' || first === '•' || first === '`' || (first >= '0' && first <= '9')) {
      BULLET.lastIndex = p;
      at += BULLET.exec(text)?.[0].length ?? 0;
    }
    let span: CallSpan | undefined;
    if (at >= progress.furthest) {
      if (hasParen) span = pythonicLine(text, at, progress, isKnownName, isKnown);
      if (!span && jsonAfterName) span = nameThenJson(text, at, nl, index, isKnownName);
    }
    if (span) {
      // the list bullet or backtick around a call goes with it
      span.start = p;
      span.end = endOfLineDecoration(text, span.end);
      spans.push(span);
      const next = nextBreak(span.end);
      lineStart = next === -1 ? text.length : next + 1;
    } else {
      lineStart = nl + 1;
    }
  }
  return spans;
}

/** The name of a Python call, as the call parser will read it (`x.call(…)` is x, print(…) wraps). */
function mayNameTool(name: string, isKnownName: (name: string) => boolean): boolean {
  if (name === 'print') return true;
  return isKnownName(name.endsWith('.call') ? name.slice(0, -'.call'.length) : name);
}

function endOfLineDecoration(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ';' || text[i] === '`' || text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/** Whatever follows a call on its line must be nothing, a `;`, a closing backtick or a special token. */
function restOfLineIsEmpty(text: string, from: number): boolean {
  let i = from;
  while (i < text.length && text[i] !== '\n') {
    const c = text[i];
    if (c === '<' && text.startsWith('<|', i)) return true;
    if (c !== ' ' && c !== '\t' && c !== '\r' && c !== ';' && c !== '`') return false;
    i++;
  }
  return true;
}

function pythonicLine(
  text: string,
  at: number,
  progress: ParseProgress,
  isKnownName: (name: string) => boolean,
  isKnown: (call: RawCall) => boolean,
): CallSpan | undefined {
  PYTHONIC_START.lastIndex = at;
  const start = PYTHONIC_START.exec(text);
  // `if (…)` and other code: a single call of a name no tool has is not worth parsing
  if (!start || (text[at] !== '[' && !mayNameTool(start[1], isKnownName))) return undefined;
  const list = parsePythonCallList(text, at, progress);
  if (!list) return undefined;
  // lines inside what was just read are never re-read, whether or not it turns out to be a call
  if (list.end > progress.furthest) progress.furthest = list.end;
  if (!restOfLineIsEmpty(text, list.end)) return undefined;
  const calls = list.calls.map(withoutEnd).filter(isKnown);
  if (calls.length === 0) return undefined;
  return { start: at, end: list.end, strategy: 'pythonic', calls, explicit: false, closed: true };
}

function nameThenJson(
  text: string,
  at: number,
  lineEnd: number,
  index: JsonIndex,
  isKnownName: (name: string) => boolean,
): CallSpan | undefined {
  NAME_LINE.lastIndex = at;
  const m = NAME_LINE.exec(text);
  if (!m) return undefined;
  let i = at + m[0].length;
  if (i < lineEnd && text[i] !== '{' && text[i] !== '\r') return undefined; // the name is part of a sentence
  if (!isKnownName(m[1])) return undefined;
  i = skipSpace(text, i);
  let fenceOpen = false;
  if (text.startsWith('```', i)) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) return undefined;
    fenceOpen = true;
    i = skipSpace(text, nl + 1);
  }
  if (text[i] !== '{') return undefined;
  const close = index.matchOf(i);
  if (close === -1) return undefined;
  const value = index.valueAt(i);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // the JSON may repeat the call in full: name\n{"name": name, "arguments": {…}}
  const inner = callsFromJson(value);
  const args = inner?.length === 1 && inner[0].name === m[1] ? inner[0].arguments : value;
  let end = close + 1;
  if (fenceOpen) {
    const j = skipSpace(text, end);
    if (text.startsWith('```', j)) end = j + 3;
  }
  if (!restOfLineIsEmpty(text, end)) return undefined;
  const call = { name: m[1], arguments: args as Record<string, unknown> };
  return { start: at, end, strategy: 'name_then_json', calls: [call], explicit: false, closed: true };
}
