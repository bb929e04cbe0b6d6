// The XML-ish call bodies: Qwen3-Coder/Nemotron `<function=name><parameter=k>v</parameter>`
// (or a JSON body, as Llama's custom-tool format writes it), MiniMax/Claude-style
// `<invoke name="x"><parameter name="k">v</parameter></invoke>`, and GLM's
// `name<arg_key>k</arg_key><arg_value>v</arg_value>`. Parameter values stay strings here; the
// schema decides later whether "42" is a number. Every function works on one block's own text.
import { createFinder, type MarkerFinder } from '../marker-finder';
import { skipSpace } from '../literal-parser';
import { parseJsonSequence } from '../json-calls';
import type { RawCall } from '../types';

export interface BodyParse {
  calls: RawCall[];
  /** just past what was read */
  end: number;
  /** false when the last element was cut off (no closing tag) */
  complete: boolean;
}

/** One leading and one trailing line break belong to the markup, not to the value. */
function trimValue(value: string): string {
  return value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
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
    const nameEnd = body.indexOf('>', i);
    const name = nameEnd === -1 ? '' : body.slice(i + '<function='.length, nameEnd).trim();
    if (name === '' || name.includes('\n') || name.length > 200) break;
    const close = find.next('</function>', nameEnd + 1);
    const nextOpen = find.next('<function=', nameEnd + 1);
    const innerEnd = close !== -1 && (nextOpen === -1 || close < nextOpen) ? close : nextOpen !== -1 ? nextOpen : body.length;
    const inner = parseFunctionInner(body, nameEnd + 1, innerEnd, find);
    if (!inner) break;
    calls.push({ name, arguments: inner.args });
    const closed = innerEnd === close;
    complete = closed || inner.complete;
    end = closed ? close + '</function>'.length : inner.end;
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

const INVOKE_OPEN = /<invoke\s+name\s*=\s*["']?([^"'>\n]+)["']?\s*>/y;
const PARAM_OPEN = /<parameter\s+name\s*=\s*["']?([^"'>\n]+)["']?\s*>/y;

/** `<invoke name="x"><parameter name="k">v</parameter></invoke>` elements from `pos`. */
export function parseInvokes(body: string, pos: number): BodyParse | undefined {
  const find = new Finders(body);
  const calls: RawCall[] = [];
  let i = skipSpace(body, pos);
  let end = pos;
  let complete = true;
  for (;;) {
    INVOKE_OPEN.lastIndex = i;
    const open = INVOKE_OPEN.exec(body);
    if (!open) break;
    const args: Record<string, unknown> = {};
    let j = skipSpace(body, i + open[0].length);
    const close = find.next('</invoke>', j);
    const limit = close === -1 ? body.length : close;
    complete = close !== -1;
    for (;;) {
      PARAM_OPEN.lastIndex = j;
      const param = PARAM_OPEN.exec(body);
      if (!param || j >= limit) break;
      const valueStart = j + param[0].length;
      const valueEnd = find.next('</parameter>', valueStart, limit);
      if (valueEnd === -1) {
        complete = false;
        j = limit;
        break;
      }
      args[param[1].trim()] = trimValue(body.slice(valueStart, valueEnd));
      j = skipSpace(body, valueEnd + '</parameter>'.length);
    }
    calls.push({ name: open[1].trim(), arguments: args });
    end = close === -1 ? j : close + '</invoke>'.length;
    i = skipSpace(body, end);
  }
  return calls.length ? { calls, end, complete } : undefined;
}

const GLM_NAME = /[^\s<>{}()[\]"',]+/y;

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
  i = skipSpace(body, i + name.length);
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
  while (body.startsWith('<arg_key>', i)) {
    const keyEnd = find.next('</arg_key>', i);
    if (keyEnd === -1) return undefined;
    const key = body.slice(i + '<arg_key>'.length, keyEnd).trim();
    let j = skipSpace(body, keyEnd + '</arg_key>'.length);
    if (!body.startsWith('<arg_value>', j)) return undefined;
    j += '<arg_value>'.length;
    const valueEnd = find.next('</arg_value>', j);
    if (valueEnd === -1) return undefined; // cut off inside a value
    args[key] = trimValue(body.slice(j, valueEnd));
    end = valueEnd + '</arg_value>'.length;
    sawPair = true;
    i = skipSpace(body, end);
  }
  if (!sawPair) return { calls: [{ name, arguments: {} }], end: m.index + name.length, complete: false };
  return { calls: [{ name, arguments: args }], end, complete: true };
}
