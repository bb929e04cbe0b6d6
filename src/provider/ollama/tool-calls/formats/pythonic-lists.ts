// Pythonic call lists wherever they stand in a reply — `Sure! [get_weather(city="Paris")]`, or a
// list followed by more prose on its line — as Llama 3.2/4 and other pythonic-format models
// write them. A loose format: every call of the list must name a declared tool. A list that is
// an operand in code (`x = [f(a)]`, `xs[f(1)]`) is not a call list. Calls on lines of their own
// (unbracketed too) are read by the line scanner.
import { parsePythonCallList, type ParseProgress } from '../python-calls';
import type { CallSpan, RawCall } from '../types';

const LIST_START = /\[[ \t]*[\p{L}_][\p{L}\p{N}_-]*(?:\.[\p{L}_][\p{L}\p{N}_-]*)*[ \t]*\(/gu;
/** right before the bracket: a subscript or attribute (`xs[f(1)]`), not a list */
const OPERAND_BEFORE = /[\p{L}\p{N}_.\])]/u;

export function scanPythonicLists(text: string, isKnown: (call: RawCall) => boolean): CallSpan[] {
  const spans: CallSpan[] = [];
  const progress: ParseProgress = { furthest: 0 };
  LIST_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LIST_START.exec(text)) !== null) {
    const at = m.index;
    if (at < progress.furthest) {
      LIST_START.lastIndex = progress.furthest;
      continue;
    }
    if (at > 0 && OPERAND_BEFORE.test(text[at - 1])) continue;
    let p = at - 1;
    while (p >= 0 && (text[p] === ' ' || text[p] === '\t')) p--;
    if (p >= 0 && (text[p] === '=' || text[p] === '(')) continue; // an assignment or an argument

    const list = parsePythonCallList(text, at, progress);
    if (!list) continue;
    if (list.end > progress.furthest) progress.furthest = list.end;
    LIST_START.lastIndex = list.end;
    const calls = list.calls.map(({ end: _end, ...call }) => call);
    if (calls.every(isKnown)) spans.push({ start: at, end: list.end, strategy: 'pythonic', calls, explicit: false, closed: true });
  }
  return spans;
}
