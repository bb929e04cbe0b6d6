// One linear pass that pairs every `{`/`[` in free text with its closer, string-aware, so the
// loose scanners can find balanced JSON without re-scanning from each brace (which is quadratic
// on `{{{{…`). Quotes only open a string where a literal can start (after `{ [ , : ( =`), so an
// apostrophe in prose ("it's") or a quote in a sentence never desynchronises the pairing.

export interface BracketIndex {
  /** index of the matching closer for the opener at i, or -1 */
  matchOf(i: number): number;
}

/** An index that also remembers the values parsed from its balanced spans. */
export interface JsonIndex extends BracketIndex {
  /** the literal spanning the opener at i to its closer (parsed once), or undefined */
  valueAt(i: number): unknown;
}

import { parseLooseJson } from '../arguments/literal-parser';

const OPEN_CURLY = 123; // {
const CLOSE_CURLY = 125; // }
const OPEN_SQUARE = 91; // [
const CLOSE_SQUARE = 93; // ]

/**
 * An index that answers the first questions by scanning forward from the bracket asked about
 * (most replies ask about one or two brackets) and builds the full table only once those scans
 * have read half the reply, so a reply full of brackets stays linear.
 */
export function createLazyBracketIndex(text: string): JsonIndex {
  let built: BracketIndex | undefined;
  let budget = (text.length >> 1) + 4096;
  const values = new Map<number, unknown>();
  return {
    valueAt(at: number): unknown {
      if (values.has(at)) return values.get(at);
      const close = this.matchOf(at);
      const value = close === -1 ? undefined : parseLooseJson(text.slice(at, close + 1));
      values.set(at, value);
      return value;
    },
    matchOf(at: number): number {
      if (built) return built.matchOf(at);
      if (budget > 0) {
        const r = closerFrom(text, at, budget);
        budget -= r.read;
        if (r.close !== -2) return r.close;
      }
      built = buildBracketIndex(text);
      return built.matchOf(at);
    },
  };
}

/** reused by closerFrom, which never runs re-entrantly */
const scratch: number[] = [];

/**
 * The closer of the bracket at `open`, by the same rules as the table, reading at most `limit`
 * characters (close -2: gave up). Text before `open` is taken as prose.
 */
function closerFrom(text: string, open: number, limit: number): { close: number; read: number } {
  const first = text.charCodeAt(open);
  if (first !== OPEN_CURLY && first !== OPEN_SQUARE) return { close: -1, read: 1 };
  const stack = scratch;
  stack.length = 0;
  stack.push(first);
  let curlyOpen = first === OPEN_CURLY ? 1 : 0;
  let squareOpen = first === OPEN_SQUARE ? 1 : 0;
  let lastSignificant = first;
  let i = open + 1;
  const stop = Math.min(text.length, open + limit);
  while (i < stop) {
    const c = text.charCodeAt(i);
    if ((c === 34 || c === 39) && startsLiteral(lastSignificant)) {
      i = skipString(text, i);
      lastSignificant = c;
      continue;
    }
    if (c === OPEN_CURLY || c === OPEN_SQUARE) {
      stack.push(c);
      if (c === OPEN_CURLY) curlyOpen++;
      else squareOpen++;
    } else if (c === CLOSE_CURLY || c === CLOSE_SQUARE) {
      const opener = c === CLOSE_CURLY ? OPEN_CURLY : OPEN_SQUARE;
      if ((opener === OPEN_CURLY ? curlyOpen : squareOpen) > 0) {
        for (;;) {
          const top = stack.pop() as number;
          if (top === OPEN_CURLY) curlyOpen--;
          else squareOpen--;
          if (stack.length === 0) return { close: top === opener ? i : -1, read: i - open + 1 };
          if (top === opener) break;
        }
      }
    }
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) lastSignificant = c;
    i++;
  }
  return { close: stop === text.length ? -1 : -2, read: stop - open };
}

export function buildBracketIndex(text: string): BracketIndex {
  const match = new Int32Array(text.length).fill(-1);
  const stack: number[] = [];
  let curlyOpen = 0;
  let squareOpen = 0;
  let lastSignificant = -1; // char code of the last non-space character outside strings
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if ((c === 34 || c === 39) && stack.length > 0 && startsLiteral(lastSignificant)) {
      i = skipString(text, i);
      lastSignificant = c;
      continue;
    }
    if (c === OPEN_CURLY || c === OPEN_SQUARE) {
      stack.push(i);
      if (c === OPEN_CURLY) curlyOpen++;
      else squareOpen++;
    } else if (c === CLOSE_CURLY || c === CLOSE_SQUARE) {
      const opener = c === CLOSE_CURLY ? OPEN_CURLY : OPEN_SQUARE;
      // a closer with no opener of its kind open is stray text; otherwise unwind to its opener,
      // abandoning any mismatched openers in between (counts keep this O(1) per character)
      if ((opener === OPEN_CURLY ? curlyOpen : squareOpen) > 0) {
        for (;;) {
          const top = stack.pop() as number;
          if (text.charCodeAt(top) === OPEN_CURLY) curlyOpen--;
          else squareOpen--;
          if (text.charCodeAt(top) === opener) {
            match[top] = i;
            break;
          }
        }
      }
    }
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) lastSignificant = c;
    i++;
  }
  return { matchOf: (at: number) => (at >= 0 && at < match.length ? match[at] : -1) };
}

function startsLiteral(prev: number): boolean {
  // { [ , : ( =
  return prev === 123 || prev === 91 || prev === 44 || prev === 58 || prev === 40 || prev === 61;
}

/** Index just past the string starting at `start`; an unterminated string runs to the end. */
function skipString(text: string, start: number): number {
  const q = text.charCodeAt(start);
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === q) return i + 1;
    // a single-quoted string cannot span lines (Python); stop so one stray ' costs one line at most
    else if (q === 39 && c === 10) return i;
    else i++;
  }
  return text.length;
}
