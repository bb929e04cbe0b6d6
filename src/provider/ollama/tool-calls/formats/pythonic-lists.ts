// Pythonic call lists wherever they stand in a reply — `Sure! [get_weather(city="Paris")]`, or a
// list followed by more prose on its line — as Llama 3.2/4 and other pythonic-format models
// write them. A loose format: every call of the list must name a declared tool. A list that is
// an operand in code (`x = [f(a)]`, `xs[f(1)]`) is not a call list. Calls on lines of their own
// (unbracketed too) are read by the line scanner.
import { parsePythonCallList, withoutEnd, type ParseProgress } from '../calls/python-calls';
import type { CallSpan, RawCall } from '../types';

// names matched loosely (see loose-lines): every call must name a declared tool anyway
const LIST_START = /\[[ \t]*([A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*(?:\.[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*)*)[ \t]*\(/y;
/** right before the bracket: a subscript or attribute (`xs[f(1)]`), not a list */
const OPERAND_BEFORE = /[\w.\])\u00c0-\uffff]/;

/** `readUntil(pos)`: the end of a region already read around `pos` (skipped), or -1. */
export function scanPythonicLists(
  text: string,
  isKnown: (call: RawCall) => boolean,
  readUntil: (pos: number) => number = () => -1,
): CallSpan[] {
  const spans: CallSpan[] = [];
  const progress: ParseProgress = { furthest: 0 };
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', Math.max(at + 1, progress.furthest))) {
    const read = readUntil(at);
    if (read !== -1) {
      progress.furthest = Math.max(progress.furthest, read);
      continue;
    }
    LIST_START.lastIndex = at;
    const start = LIST_START.exec(text);
    if (!start || !isKnown({ name: start[1].replace(/\.call$/, ''), arguments: {} })) continue; // every call must be a tool's
    if (at > 0 && OPERAND_BEFORE.test(text[at - 1])) continue;
    let p = at - 1;
    while (p >= 0 && (text[p] === ' ' || text[p] === '\t')) p--;
    if (p >= 0 && (text[p] === '=' || text[p] === '(')) continue; // an assignment or an argument
    const list = parsePythonCallList(text, at, progress);
    if (!list) continue;
    if (list.end > progress.furthest) progress.furthest = list.end;
    const calls = list.calls.map(withoutEnd);
    if (calls.every(isKnown)) spans.push({ start: at, end: list.end, strategy: 'pythonic', calls, explicit: false, closed: true });
  }
  return spans;
}
