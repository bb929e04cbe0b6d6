// What can stand inside a call wrapper (<tool_call>, <|python_tag|>, <function_calls>, …): JSON
// call objects or arrays, Python-style calls, <function=…> or <invoke>-style XML, GLM's name +
// <arg_key>/<arg_value> pairs, or a name followed by JSON. The body decides the format, the
// wrapper only says "this is a call". In a list, a malformed element does not sink the others.
import { pushAll } from '../scan/collections';
import { callsFromJson, closeOpenJson, readCallList, readJsonValue } from '../calls/json-calls';
import { looksStrict, skipSpace } from '../arguments/literal-parser';
import { parsePythonCallList } from '../calls/python-calls';
import type { RawCall } from '../types';
import { isInvokeStart, parseInvokes } from './invoke-bodies';
import { parseNameBody, parseXmlFunctions, type BodyParse } from './xml-bodies';

export type BodyKind = 'json' | 'pythonic' | 'xml_function' | 'xml_invoke' | 'arg_key_value';

export interface BlockParse {
  calls: RawCall[];
  kind: BodyKind;
  /** just past the block within the region, closing tag included when there was one */
  end: number;
  /** the closing tag was found */
  closedByTag: boolean;
  /** the body's own structure is whole (JSON parsed, last value closed) */
  complete: boolean;
}

const PYTHONIC_START = /\[?\s*[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*(?:\.[A-Za-z_\u00c0-\uffff][\w\-\u00c0-\uffff]*)*\s*\(/y;

/**
 * Parses the text after a wrapper's opening marker. `region` runs to the next opening marker of
 * the same wrapper or the end of the output; `atEnd` says the region is the output's tail.
 */
export function parseCallBlock(region: string, closeTags: readonly string[], atEnd: boolean): BlockParse | undefined {
  let i = skipSpace(region, 0);
  const whole = strictJsonBlock(region, i, closeTags);
  if (whole) return whole;
  let fenced = false;
  if (region.startsWith('```', i)) {
    const nl = region.indexOf('\n', i);
    if (nl === -1) return undefined;
    fenced = true;
    i = nl + 1;
  }
  const body = parseBody(region, i);
  if (!body) return region[i] === '{' || region[i] === '[' ? repairClosedJson(region, i, closeTags) : undefined;
  let bodyEnd = skipSpace(region, body.end);
  if (fenced && region.startsWith('```', bodyEnd)) bodyEnd += 3;
  else bodyEnd = body.end;

  let closeAt = -1;
  let closeTag = '';
  for (const tag of closeTags) {
    const at = region.indexOf(tag, body.end);
    if (at !== -1 && (closeAt === -1 || at < closeAt)) {
      closeAt = at;
      closeTag = tag;
    }
  }
  if (closeAt !== -1) {
    // only whitespace or a stray bracket may sit between the body and its closing tag
    if (!/^[\s\]}`]*$/.test(region.slice(bodyEnd, closeAt))) return undefined;
    return { calls: body.calls, kind: body.kind, end: closeAt + closeTag.length, closedByTag: true, complete: body.complete };
  }
  let end = bodyEnd;
  const rest = region.slice(bodyEnd).trim();
  // output cut off inside the closing tag: "…</tool_"
  if (atEnd && rest !== '' && closeTags.some((t) => t.startsWith(rest))) end = region.length;
  return { calls: body.calls, kind: body.kind, end, closedByTag: false, complete: body.complete };
}

function parseBody(region: string, i: number): (BodyParse & { kind: BodyKind }) | undefined {
  const c = region[i];
  if (c !== '{' && c !== '<') {
    PYTHONIC_START.lastIndex = i;
    if (PYTHONIC_START.test(region)) {
      const list = parsePythonCallList(region, i);
      if (list) return { calls: list.calls, end: list.end, complete: true, kind: 'pythonic' };
      if (c !== '[') return undefined; // `name(` that does not parse is nothing else either
    }
  }
  if (c === '{' || c === '[') return parseJsonCalls(region, i);
  if (region.startsWith('<function=', i)) {
    const r = parseXmlFunctions(region, i);
    return r && withKind(r, 'xml_function');
  }
  if (isInvokeStart(region, i)) {
    const r = parseInvokes(region, i);
    return r && withKind(r, region.startsWith('<function', i) ? 'xml_function' : 'xml_invoke');
  }
  const r = parseNameBody(region, i);
  if (!r) return undefined;
  const jsonArgs = r.complete && r.calls[0].textValues !== 'decode';
  return withKind(r, jsonArgs ? 'json' : 'arg_key_value');
}

/**
 * The common case read the fast way: the whole body up to the closing tag is one strict JSON
 * call or list of calls, so the native parser reads it without a bracket scan first.
 */
function strictJsonBlock(region: string, i: number, closeTags: readonly string[]): BlockParse | undefined {
  const c = region[i];
  if ((c !== '{' && c !== '[') || !looksStrict(region, i)) return undefined;
  let closeAt = -1;
  let closeTag = '';
  for (const tag of closeTags) {
    const at = region.indexOf(tag, i);
    if (at !== -1 && (closeAt === -1 || at < closeAt)) {
      closeAt = at;
      closeTag = tag;
    }
  }
  if (closeAt === -1) return undefined;
  let last = closeAt - 1;
  while (last > i && region.charCodeAt(last) <= 32) last--;
  if (region[last] !== (c === '{' ? '}' : ']')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(region.slice(i, last + 1));
  } catch {
    return undefined;
  }
  const calls = callsFromJson(value);
  return calls && { calls, kind: 'json', end: closeAt + closeTag.length, closedByTag: true, complete: true };
}

function withKind(r: BodyParse, kind: BodyKind): BodyParse & { kind: BodyKind } {
  return { calls: r.calls, end: r.end, complete: r.complete, kind };
}

/** JSON values one after another, as long as each is a call or a list of calls. */
function parseJsonCalls(region: string, start: number): (BodyParse & { kind: BodyKind }) | undefined {
  const calls: RawCall[] = [];
  let i = start;
  let end = start;
  let complete = true;
  while (region[i] === '{' || region[i] === '[') {
    if (region[i] === '[') {
      const list = readCallList(region, i);
      if (!list) break;
      pushAll(calls, list.calls);
      end = list.end;
      if (!list.closed) {
        complete = false;
        break;
      }
    } else {
      const v = readJsonValue(region, i);
      const found = v && callsFromJson(v.value);
      if (!v || !found) break;
      pushAll(calls, found);
      end = v.end;
    }
    i = skipSpace(region, end);
    if (region[i] === ',' || region[i] === ';') i = skipSpace(region, i + 1);
  }
  return calls.length ? { calls, end, complete, kind: 'json' } : undefined;
}

/** A JSON body one or two closing brackets short of whole, inside a block its closing tag ends. */
function repairClosedJson(region: string, start: number, closeTags: readonly string[]): BlockParse | undefined {
  let closeAt = -1;
  let closeTag = '';
  for (const tag of closeTags) {
    const at = region.indexOf(tag, start);
    if (at !== -1 && (closeAt === -1 || at < closeAt)) {
      closeAt = at;
      closeTag = tag;
    }
  }
  if (closeAt === -1) return undefined;
  const repaired = closeOpenJson(region.slice(start, closeAt).trim().replace(/`{3}$/, '').trimEnd());
  const body = repaired === undefined ? undefined : parseJsonCalls(repaired, 0);
  if (!body || skipSpace(repaired as string, body.end) !== (repaired as string).length) return undefined;
  for (const call of body.calls) call.irregular ??= 'JSON closed by the extractor (closing brackets missing before the tag)';
  return { calls: body.calls, kind: 'json', end: closeAt + closeTag.length, closedByTag: true, complete: true };
}
