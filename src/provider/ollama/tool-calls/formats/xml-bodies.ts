// The XML-ish call bodies with the name in the tag: Qwen3-Coder/Seed-OSS/Nemotron
// `<function=name><parameter=k>v</parameter>` (or a JSON body, as Llama's custom-tool format and
// Functionary v3.1 write it), and GLM's `name<arg_key>k</arg_key><arg_value>v</arg_value>`.
// Values stay text here; the schema decides later whether "42" is a number (GLM writes non-string
// values as JSON, so its values are decoded unless the schema says string). Qwen3-Coder writes a
// value verbatim between two line breaks of its own, so only those go. Every function works on
// one block's own text, and a broken element is skipped without losing its siblings.
import { createFinder, type MarkerFinder } from '../scan/marker-finder';
import { skipSpace } from '../arguments/literal-parser';
import { parseJsonSequence } from '../calls/json-calls';
import type { RawCall } from '../types';

export interface BodyParse {
  calls: RawCall[];
  /** just past what was read */
  end: number;
  /** false when the last element was cut off (no closing tag) */
  complete: boolean;
}

/** One leading and one trailing line break belong to the markup; the rest is the value, verbatim. */
function trimValue(value: string): string {
  let start = 0;
  let end = value.length;
  if (value[start] === '\r' && value[start + 1] === '\n') start += 2;
  else if (value[start] === '\n') start++;
  if (end > start && value[end - 1] === '\n') end -= end - 1 > start && value[end - 2] === '\r' ? 2 : 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

class Finders {
  private readonly map = new Map<string, MarkerFinder>();
  constructor(private readonly text: string) {}
  next(needle: string, from: number, limit = this.text.length): number {
    let f = this.map.get(needle);
    if (!f) {
      f = createFinder(this.text, needle);
      this.map.set(needle, f);
    }
    const at = f(from);
    return at === -1 || at >= limit ? -1 : at;
  }
}

/** `<function=name>…</function>` elements, one after another, from `pos`. */
export function parseXmlFunctions(body: string, pos: number): BodyParse | undefined {
  const find = new Finders(body);
  const calls: RawCall[] = [];
  let i = skipSpace(body, pos);
  let end = pos;
  let complete = true;
  while (body.startsWith('<function=', i)) {
    const nameEnd = find.next('>', i);
    if (nameEnd === -1) break;
    const name = body.slice(i + '<function='.length, nameEnd).trim();
    const close = find.next('</function>', nameEnd + 1);
    if (name === '' || name.includes('\n') || name.length > 200) {
      // an element without a usable name: skipped when it is closed, its siblings still count
      if (close === -1) break;
      end = close + '</function>'.length;
      i = skipSpace(body, end);
      continue;
    }
    const nextOpen = find.next('<function=', nameEnd + 1);
    const innerEnd = close !== -1 && (nextOpen === -1 || close < nextOpen) ? close : nextOpen !== -1 ? nextOpen : body.length;
    const inner = parseFunctionInner(body, nameEnd + 1, innerEnd, find);
    const closed = innerEnd === close;
    if (inner) {
      calls.push({ name, arguments: inner.args, textValues: 'null' });
      complete = closed || inner.complete;
      end = closed ? close + '</function>'.length : inner.end;
    } else if (closed) {
      end = close + '</function>'.length; // a broken element: skipped, its siblings still count
    } else {
      break;
    }
    i = skipSpace(body, end);
  }
  return calls.length ? { calls, end, complete } : undefined;
}

function parseFunctionInner(
  body: string,
  start: number,
  limit: number,
  find: Finders,
): { args: Record<string, unknown>; end: number; complete: boolean } | undefined {
  const first = skipSpace(body, start);
  if (body[first] === '{') {
    const seq = parseJsonSequence(body.slice(first, limit));
    const obj = seq.values[0];
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
    return { args: obj as Record<string, unknown>, end: first + seq.end, complete: true };
  }
  const args: Record<string, unknown> = {};
  let i = first;
  let end = first;
  let complete = false; // a bare <function=x> with neither parameters nor a close may be cut off
  while (body.startsWith('<parameter=', i) && i < limit) {
    const keyEnd = body.indexOf('>', i);
    if (keyEnd === -1 || keyEnd >= limit) return undefined;
    const key = body.slice(i + '<parameter='.length, keyEnd).trim();
    const valueStart = keyEnd + 1;
    const close = find.next('</parameter>', valueStart, limit);
    const nextParam = find.next('<parameter=', valueStart, limit);
    // a missing </parameter> before the next <parameter= is a slip we forgive
    const valueEnd = close !== -1 && (nextParam === -1 || close < nextParam) ? close : nextParam !== -1 ? nextParam : limit;
    args[key] = trimValue(body.slice(valueStart, valueEnd));
    complete = valueEnd === close || valueEnd === nextParam;
    end = valueEnd === close ? close + '</parameter>'.length : valueEnd;
    i = skipSpace(body, end);
  }
  if (i < limit && body.slice(i, limit).trim() !== '') return undefined;
  return { args, end: Math.max(end, first), complete };
}

const TOOL_SEP = '<tool_sep>';
const ARG_PAIR = ['<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>'] as const;
const PARAM_PAIR = ['<param_key>', '</param_key>', '<param_value>', '</param_value>'] as const;
const GLM_NAME = /[^\s<>{}()[\]"',\\]+/y;

/** Whitespace, and the two-character `\n` some GLM outputs carry instead of a line break. */
function skipGlmSpace(body: string, pos: number): number {
  let i = skipSpace(body, pos);
  while (body[i] === '\\' && body[i + 1] === 'n') i = skipSpace(body, i + 2);
  return i;
}

/**
 * GLM's `name` + `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, or a name followed by a
 * JSON object. A bare name is read too but marked incomplete: only a closing tag confirms it.
 */
export function parseNameBody(body: string, pos: number): BodyParse | undefined {
  let i = skipSpace(body, pos);
  GLM_NAME.lastIndex = i;
  const m = GLM_NAME.exec(body);
  if (!m) return undefined;
  const name = m[0];
  i = skipGlmSpace(body, i + name.length);
  // Hunyuan HY-V3 separates the name from its pairs with <tool_sep>
  let nameEnd = m.index + name.length;
  if (body.startsWith(TOOL_SEP, i)) nameEnd = i = skipGlmSpace(body, i + TOOL_SEP.length);
  if (body[i] === '{') {
    const seq = parseJsonSequence(body.slice(i));
    const obj = seq.values[0];
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
    return { calls: [{ name, arguments: obj as Record<string, unknown> }], end: i + seq.end, complete: true };
  }
  const find = new Finders(body);
  const args: Record<string, unknown> = {};
  let end = i;
  let sawPair = false;
  // TeleChat4 and Xing4.0 write the same pairs as <param_key>/<param_value>
  const [keyOpen, keyClose, valueOpen, valueClose] = body.startsWith('<param_key>', i) ? PARAM_PAIR : ARG_PAIR;
  while (body.startsWith(keyOpen, i)) {
    const keyEnd = find.next(keyClose, i);
    if (keyEnd === -1) return undefined;
    const key = body.slice(i + keyOpen.length, keyEnd).trim();
    let j = skipGlmSpace(body, keyEnd + keyClose.length);
    if (!body.startsWith(valueOpen, j)) return undefined;
    j += valueOpen.length;
    const valueEnd = find.next(valueClose, j);
    if (valueEnd === -1) return undefined; // cut off inside a value
    // verbatim: a string parameter keeps its indent and final newline (text-values trims the rest)
    args[key] = body.slice(j, valueEnd);
    end = valueEnd + valueClose.length;
    sawPair = true;
    i = skipGlmSpace(body, end);
  }
  if (!sawPair) return { calls: [{ name, arguments: {} }], end: nameEnd, complete: false };
  // a trailing escaped \n belongs to the markup too
  const tail = body.slice(end, i).includes('\\n') ? i : end;
  return { calls: [{ name, arguments: args, textValues: 'decode' }], end: tail, complete: true };
}
