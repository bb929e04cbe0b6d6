// A tolerant parser for the literals models write: JSON, plus what JSON.parse rejects but a model
// plainly meant — Python literals (single/triple quotes, True/False/None, tuples), bare object
// keys, trailing commas, raw newlines inside strings. Hand-written, single pass, recursive only up to
// a depth cap: linear, never throws, and cannot overflow the stack on `[[[[…`.

/** On failure `end` is about how far the attempt read (used to skip past failed regions). */
export type ParseResult = { ok: true; value: unknown; end: number } | { ok: false; end: number };

export interface LiteralOptions {
  /** an unquoted run such as `celsius` or `2024-01-15` is read as a string (Python kwargs values) */
  bareWords?: boolean;
}

const MAX_DEPTH = 200;
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const KEYWORD = /[A-Za-z_$][\w$]*/y;
const BARE_KEY = /[\p{L}\p{N}_$][\p{L}\p{N}_$\-.]*/uy;
const KEYWORDS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
};
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0xfeff;
}

export function skipSpace(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0xfeff) pos++;
    else break;
  }
  return pos;
}

/** Parses one literal starting at `pos` (leading whitespace allowed); `end` is just past it. */
export function parseLiteral(text: string, pos: number, options: LiteralOptions = {}): ParseResult {
  return new LiteralParser(text, options).parseValue(pos, 0);
}

/** The whole text as one literal (surrounding whitespace allowed), or undefined. */
export function parseLooseJson(text: string): unknown {
  const trimmed = isSpaceCode(text.charCodeAt(0)) || isSpaceCode(text.charCodeAt(text.length - 1)) ? text.trim() : text;
  if (trimmed === '') return undefined;
  if (looksStrict(trimmed, 0)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // not strict after all: the tolerant parser below decides
    }
  }
  const r = parseLiteral(trimmed, 0);
  return r.ok && skipSpace(trimmed, r.end) === trimmed.length ? r.value : undefined;
}

/**
 * Whether the value at `pos` opens the way strict JSON does (a quoted key, a closing bracket, a
 * JSON scalar). The native parser is fast but a failure costs an exception, which is slower than
 * our own parse of a small value: Python dicts, bare keys and plain words go straight to ours.
 */
export function looksStrict(text: string, pos: number): boolean {
  const c = text.charCodeAt(pos);
  if (c === 123) {
    const d = text.charCodeAt(skipSpace(text, pos + 1));
    return d === 34 || d === 125; // {" or {}
  }
  if (c === 91) {
    const d = text.charCodeAt(skipSpace(text, pos + 1));
    // [" [{ [[ ]  digits, minus, true/false/null
    return d === 34 || d === 123 || d === 91 || d === 93 || d === 45 || (d >= 48 && d <= 57) || d === 116 || d === 102 || d === 110;
  }
  return c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
}

/** Reads a quoted string at `pos` (which holds the quote); Python triple quotes included. */
export function parseQuoted(text: string, pos: number): ParseResult {
  const q = text[pos];
  const triple = text.startsWith(q + q + q, pos);
  const close = triple ? q + q + q : q;
  let i = pos + close.length;
  let out = '';
  let runStart = i;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      out += text.slice(runStart, i);
      const next = text[i + 1];
      if (next === undefined) return { ok: false, end: text.length };
      if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16));
        i += 4;
      } else if (next === '\n') {
        i += 2; // line continuation
      } else {
        // unknown escapes keep their backslash, as Python does (`\d` in a regex stays `\d`)
        out += ESCAPES[next] ?? (next === '"' || next === "'" || next === '\\' || next === '/' ? next : '\\' + next);
        i += 2;
      }
      runStart = i;
    } else if (c === q && (!triple || text.startsWith(close, i))) {
      out += text.slice(runStart, i);
      return { ok: true, value: out, end: i + close.length };
    } else {
      i++;
    }
  }
  return { ok: false, end: text.length };
}

class LiteralParser {
  constructor(
    private readonly text: string,
    private readonly options: LiteralOptions,
  ) {}

  parseValue(start: number, depth: number): ParseResult {
    const text = this.text;
    const pos = skipSpace(text, start);
    if (pos >= text.length) return { ok: false, end: pos };
    if (depth > MAX_DEPTH) return { ok: false, end: pos };
    const c = text[pos];
    if (c === '{') return this.parseObject(pos, depth);
    if (c === '[') return this.parseArray(pos, ']', depth);
    if (c === '(') return this.parseArray(pos, ')', depth);
    if (c === '"' || c === "'") return parseQuoted(text, pos);
    const primitive = this.parsePrimitive(pos);
    if (primitive.ok || !this.options.bareWords) return primitive;
    return this.parseBareWord(pos);
  }

  private parsePrimitive(pos: number): ParseResult {
    const text = this.text;
    NUMBER.lastIndex = pos;
    const num = NUMBER.exec(text);
    if (num && this.endsToken(pos + num[0].length)) {
      return { ok: true, value: Number(num[0]), end: pos + num[0].length };
    }
    KEYWORD.lastIndex = pos;
    const word = KEYWORD.exec(text);
    if (word && Object.prototype.hasOwnProperty.call(KEYWORDS, word[0]) && this.endsToken(pos + word[0].length)) {
      return { ok: true, value: KEYWORDS[word[0]], end: pos + word[0].length };
    }
    // report how far the attempt read, so callers can skip what a failed parse already covered
    return { ok: false, end: pos + Math.max(num?.[0].length ?? 0, word?.[0].length ?? 0) };
  }

  /** A value token must be followed by a delimiter, so `2024-01-15` is not the number 2024. */
  private endsToken(pos: number): boolean {
    if (pos >= this.text.length) return true;
    const c = this.text.charCodeAt(pos);
    // , : ) ] } = ; or white space
    return c === 44 || c === 58 || c === 41 || c === 93 || c === 125 || c === 61 || c === 59 || c <= 32 || c === 0xa0 || c === 0xfeff;
  }

  private parseBareWord(pos: number): ParseResult {
    const text = this.text;
    let i = pos;
    while (i < text.length && !/[,)\]}\n]/.test(text[i])) i++;
    const word = text.slice(pos, i).trim();
    if (word === '' || /["'({[]/.test(word)) return { ok: false, end: i };
    return { ok: true, value: word, end: i };
  }

  private parseObject(open: number, depth: number): ParseResult {
    const text = this.text;
    const out: Record<string, unknown> = {};
    let pos = open + 1;
    for (;;) {
      pos = skipSpace(text, pos);
      if (text[pos] === '}') return { ok: true, value: out, end: pos + 1 };
      const key = this.parseKey(pos);
      if (!key.ok) return key;
      pos = skipSpace(text, key.end);
      if (text[pos] !== ':' && text[pos] !== '=') return { ok: false, end: pos };
      const value = this.parseValue(pos + 1, depth + 1);
      if (!value.ok) return value;
      out[String(key.value)] = value.value;
      pos = skipSpace(text, value.end);
      if (text[pos] === ',') pos++;
      else if (text[pos] !== '}') return { ok: false, end: pos };
    }
  }

  private parseKey(pos: number): ParseResult {
    const c = this.text[pos];
    if (c === '"' || c === "'") return parseQuoted(this.text, pos);
    BARE_KEY.lastIndex = pos;
    const m = BARE_KEY.exec(this.text);
    return m ? { ok: true, value: m[0], end: pos + m[0].length } : { ok: false, end: pos };
  }

  private parseArray(open: number, close: string, depth: number): ParseResult {
    const text = this.text;
    const out: unknown[] = [];
    let pos = open + 1;
    for (;;) {
      pos = skipSpace(text, pos);
      if (text[pos] === close) return { ok: true, value: out, end: pos + 1 };
      const value = this.parseValue(pos, depth + 1);
      if (!value.ok) return value;
      out.push(value.value);
      pos = skipSpace(text, value.end);
      if (text[pos] === ',') pos++;
      else if (text[pos] !== close) return { ok: false, end: pos };
    }
  }
}
