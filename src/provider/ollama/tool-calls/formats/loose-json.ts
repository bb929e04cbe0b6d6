// Bare JSON calls in free text: {"name":…,"arguments":…} objects, lists of them, several in a
// row, and a list the output cut off after its last whole element. A loose format: only calls
// naming a declared tool count, so `{"name": "John", "age": 3}` in an answer stays text.
// Balanced spans come from the bracket index; a total parse budget keeps adversarial nesting
// (an invalid value inside an invalid value inside …) linear.
import type { JsonIndex } from '../scan/bracket-index';
import { pushAll } from '../scan/collections';
import { CALL_KEYS, callsFromJson, readCallList } from '../calls/json-calls';
import { parseLooseJson, skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';

/**
 * The start of something that could be a call object: its first key is one a call has (a data
 * object such as {"path": …} or {"id": 1, "title": …} is not looked at further).
 */
const KEY_ALTERNATIVES = [...CALL_KEYS].sort((a, b) => b.length - a.length).join('|');
const OBJECT_START = new RegExp(`\\{\\s*(?:(["'])(?:${KEY_ALTERNATIVES})\\1|(?:${KEY_ALTERNATIVES}))\\s*:`, 'y');

export function scanLooseJson(text: string, index: JsonIndex, isKnown: (call: RawCall) => boolean): CallSpan[] {
  const spans: CallSpan[] = [];
  let budget = 8 * text.length + 262144;
  const nextCurly = createFinder(text, '{');
  const nextSquare = createFinder(text, '[');
  let i = 0;
  while (i < text.length && budget > 0) {
    const curly = nextCurly(i);
    const square = nextSquare(i);
    if (curly === -1 && square === -1) break;
    i = curly === -1 ? square : square === -1 ? curly : Math.min(curly, square);
    const c = text[i];
    if (!looksLikeCallStart(text, i)) {
      i++;
      continue;
    }
    const close = index.matchOf(i);
    if (close === -1) {
      const tail = c === '[' ? unterminatedList(text, i, index, isKnown) : undefined;
      if (tail) {
        spans.push(tail);
        i = tail.end;
      } else {
        i++;
      }
      continue;
    }
    budget -= close + 1 - i;
    const value = index.valueAt(i);
    if (value === undefined) {
      // a list of calls with one malformed element still holds its well-formed siblings
      const list = c === '[' ? readCallList(text.slice(i, close + 1), 0) : undefined;
      const listed = list?.closed ? list.calls.filter(isKnown) : [];
      if (listed.length > 0 && listed.length === list?.calls.length) {
        spans.push({ start: i, end: close + 1, strategy: 'json', calls: listed, explicit: false, closed: true });
        i = close + 1;
      } else {
        i++; // not JSON as a whole: a call may still sit inside
      }
      continue;
    }
    const calls = callsFromJson(value)?.filter(isKnown);
    if (calls && calls.length > 0) spans.push({ start: i, end: close + 1, strategy: 'json', calls, explicit: false, closed: true });
    i = close + 1; // valid JSON that is not a call is data, not a container of calls
  }
  return spans;
}

/** `{"…` or `{key:` opens a call object; `[{` a list of them (a list of lists is not a call list). */
function looksLikeCallStart(text: string, i: number): boolean {
  if (text[i] === '[') return text[skipSpace(text, i + 1)] === '{';
  OBJECT_START.lastIndex = i;
  return OBJECT_START.test(text);
}

/** `[{…}, {…}` with the closing bracket cut off: the whole elements still count. */
function unterminatedList(text: string, open: number, index: JsonIndex, isKnown: (call: RawCall) => boolean): CallSpan | undefined {
  const calls: RawCall[] = [];
  let j = skipSpace(text, open + 1);
  let end = open;
  while (text[j] === '{') {
    const close = index.matchOf(j);
    if (close === -1) return undefined;
    const found = callsFromJson(parseLooseJson(text.slice(j, close + 1)));
    if (!found) return undefined;
    pushAll(calls, found);
    end = close + 1;
    j = skipSpace(text, end);
    if (text[j] === ',') j = skipSpace(text, j + 1);
  }
  if (j < text.length || calls.length === 0) return undefined;
  const known = calls.filter(isKnown);
  return known.length ? { start: open, end, strategy: 'json', calls: known, explicit: false, closed: true } : undefined;
}
