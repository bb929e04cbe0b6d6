// Recognises the shapes of a tool call once JSON has been parsed: {"name","arguments"} and the
// many spellings models use for the same thing ("parameters", "args", arguments given as a JSON
// string, {"function":{…}} / {"type":"function",…} wrappers, {"tool_calls":[…]}, LangChain's
// {"action","action_input"}), and lists of them.
import { pushAll } from '../scan/collections';
import { looksStrict, parseLiteral, parseLooseJson, skipSpace } from '../arguments/literal-parser';
import type { RawCall } from '../types';

const NAME_KEYS = ['name', 'tool_name', 'function_name', 'tool', 'action', 'function'];
const ARG_KEYS = ['arguments', 'parameters', 'args', 'input', 'tool_input', 'action_input', 'params', 'kwargs'];
const WRAPPER_KEYS = ['tool_calls', 'function_call', 'tool_call', 'calls', 'function'];
/** keys that describe a call rather than being one of its arguments */
const META_KEYS = new Set(['type', 'id', 'index', 'call_id', 'tool_call_id']);

/** Every key a call object in one of the shapes above can have (in loose text, one comes first). */
export const CALL_KEYS: readonly string[] = [...new Set([...NAME_KEYS, ...ARG_KEYS, ...WRAPPER_KEYS, ...META_KEYS])];

/**
 * Objects and lists the tolerant parser read because JSON.parse refused them (single quotes, bare
 * keys, trailing commas, Python words): a call read from one was repaired, which strict extraction
 * refuses. Marked where they are parsed, so no scanner has to carry the fact along.
 */
const TOLERANT = new WeakSet<object>();

/** Whether `value` (a call's arguments, or the JSON a call was read from) is pseudo-JSON the tolerant parser read. */
export function readTolerantly(value: unknown): boolean {
  return typeof value === 'object' && value !== null && TOLERANT.has(value);
}

function markTolerant<T>(value: T): T {
  if (typeof value === 'object' && value !== null) TOLERANT.add(value);
  return value;
}

/** The whole text as JSON, else as a tolerant literal (marked). */
function parseMarked(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return markTolerant(parseLooseJson(text));
  }
}

/** What strict extraction says of a call read from pseudo-JSON. */
export const PSEUDO_JSON = 'not valid JSON (single quotes, bare keys, trailing commas or Python literals)';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The calls a parsed JSON value denotes, or undefined when it is not (entirely) calls. */
export function callsFromJson(value: unknown, tolerant = readTolerantly(value)): RawCall[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const calls: RawCall[] = [];
    for (const item of value) {
      const inner = callsFromJson(item, tolerant || readTolerantly(item));
      if (!inner) return undefined;
      pushAll(calls, inner);
    }
    return calls;
  }
  if (!isObject(value)) return undefined;
  for (const key of WRAPPER_KEYS) {
    const inner = value[key];
    if (inner !== null && typeof inner === 'object' && onlyMetaBesides(value, key)) return callsFromJson(inner, tolerant);
  }
  const call = callFromObject(value);
  if (call && tolerant && call.irregular === undefined) call.irregular = `call ${PSEUDO_JSON}`;
  return call ? [call] : undefined;
}

function onlyMetaBesides(obj: Record<string, unknown>, key: string): boolean {
  for (const k in obj) if (k !== key && !META_KEYS.has(k)) return false;
  return true;
}

function callFromObject(obj: Record<string, unknown>): RawCall | undefined {
  let nameKey: string | undefined;
  for (const k of NAME_KEYS) {
    const v = obj[k];
    if (typeof v === 'string' && v.trim() !== '') {
      nameKey = k;
      break;
    }
  }
  if (!nameKey) return undefined;
  const name = (obj[nameKey] as string).trim();
  let argKey: string | undefined;
  for (const k of ARG_KEYS) {
    if (k !== nameKey && k in obj) {
      argKey = k;
      break;
    }
  }
  if (argKey === undefined) {
    // arguments written flat next to the name: {"name":"read_file","path":"a.txt"}
    const args: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (k !== nameKey && !META_KEYS.has(k)) args[k] = v;
    return { name, arguments: args };
  }
  const raw = obj[argKey];
  if (raw === null || raw === undefined) return { name, arguments: {} };
  if (isObject(raw)) {
    // an echoed tool definition ({"name","description","parameters":{"type":"object","properties"}}) is not a call
    if (raw.type === 'object' && isObject(raw.properties)) return undefined;
    return { name, arguments: raw };
  }
  if (typeof raw === 'string') {
    const parsed = raw.trim() === '' ? {} : parseMarked(raw);
    if (isObject(parsed))
      return readTolerantly(parsed)
        ? { name, arguments: parsed, irregular: `arguments string ${PSEUDO_JSON}` }
        : { name, arguments: parsed };
    return { name, arguments: {}, inputText: raw };
  }
  return undefined;
}

export interface JsonSequence {
  values: unknown[];
  /** just past the last value read */
  end: number;
}

/**
 * Reads consecutive JSON values (objects/arrays) from `pos`, separated by whitespace, commas or
 * semicolons, stopping at the first thing that is not one. Tolerant literals allowed. Callers pass
 * the block's own slice, so the work stays proportional to the block.
 */
export function parseJsonSequence(body: string, pos = 0): JsonSequence {
  const values: unknown[] = [];
  let i = skipSpace(body, pos);
  let end = pos;
  while (i < body.length && (body[i] === '{' || body[i] === '[')) {
    const r = readJsonValue(body, i);
    if (!r) break;
    values.push(r.value);
    end = r.end;
    i = skipSpace(body, r.end);
    if (body[i] === ',' || body[i] === ';') i = skipSpace(body, i + 1);
  }
  return { values, end };
}

/** One JSON (or tolerant) value at `pos`: strict JSON goes to the native parser, the rest to ours. */
export function readJsonValue(text: string, pos: number): { value: unknown; end: number } | undefined {
  const c = text[pos];
  if (c === '{' || c === '[') {
    const close = matchingBracket(text, pos);
    // brackets that never balance cannot hold a whole value, however tolerant the parser
    if (close === -1) return undefined;
    if (looksStrict(text, pos)) {
      try {
        return { value: JSON.parse(text.slice(pos, close + 1)), end: close + 1 };
      } catch {
        // not strict JSON: the tolerant parser below may still read it
      }
    }
  }
  const r = parseLiteral(text, pos);
  return r.ok ? { value: markTolerant(r.value), end: r.end } : undefined;
}

/**
 * Index of the bracket closing the one at `open` (strings in either quote skipped), or -1.
 * Bracket kinds are not checked: this only finds the extent, the parser judges it.
 */
export function matchingBracket(text: string, open: number, limit = text.length): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      i++;
      while (i < limit) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === c) break;
        else i++;
      }
    } else if (c === 123 || c === 91) {
      depth++;
    } else if (c === 125 || c === 93) {
      if (--depth === 0) return i;
    }
  }
  return -1;
}

export interface CallList {
  calls: RawCall[];
  /** just past the closing bracket, or past the last whole element when the list was cut off */
  end: number;
  /** the closing bracket was found */
  closed: boolean;
}

/**
 * A JSON list of calls read element by element, so that one malformed element costs only itself
 * and its well-formed siblings still count. `toCalls` turns one element into calls (undefined:
 * not a call). Undefined when no element is a call or the list itself is not a list.
 */
export function readCallList(
  text: string,
  open: number,
  toCalls: (value: unknown) => RawCall[] | undefined = callsFromJson,
): CallList | undefined {
  // the usual case first: the whole list is strict JSON
  const whole = readJsonValue(text, open);
  if (whole && Array.isArray(whole.value)) {
    const calls: RawCall[] = [];
    const tolerant = readTolerantly(whole.value);
    for (const item of whole.value) {
      const found = toCalls(item);
      if (found && tolerant) for (const call of found) call.irregular ??= `call ${PSEUDO_JSON}`;
      if (found) pushAll(calls, found);
    }
    return calls.length ? { calls, end: whole.end, closed: true } : undefined;
  }
  // element by element: where each one ends, then what each one holds
  const starts: number[] = [];
  const ends: number[] = [];
  let i = skipSpace(text, open + 1);
  let closed = false;
  for (;;) {
    if (i >= text.length) break;
    if (text[i] === ']') {
      closed = true;
      break;
    }
    const elementEnd = text[i] === '{' || text[i] === '[' ? matchingBracket(text, i) + 1 : (readJsonValue(text, i)?.end ?? 0);
    if (elementEnd === 0) break; // cut off inside an element
    starts.push(i);
    ends.push(elementEnd);
    i = skipSpace(text, elementEnd);
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] !== ']') break;
  }
  if (starts.length === 0) return undefined;
  const end = closed ? i + 1 : ends[ends.length - 1];
  const calls: RawCall[] = [];
  // a list cut off after whole elements reads in one native parse; a malformed element does not
  const strict = !closed && looksStrict(text, starts[0]) ? parseWhole(`[${text.slice(starts[0], ends[ends.length - 1])}]`) : undefined;
  for (let k = 0; k < starts.length; k++) {
    const found = toCalls(strict ? strict[k] : parseMarked(text.slice(starts[k], ends[k])));
    if (found) pushAll(calls, found);
  }
  return calls.length ? { calls, end, closed } : undefined;
}

function parseWhole(json: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `text` with the closing brackets it lacks appended, when only its end is missing — the slip a
 * model makes when it closes its call tag one brace too early. Undefined when brackets mismatch
 * or more than `maxMissing` are open (that is a cut-off, not a slip).
 */
export function closeOpenJson(text: string, maxMissing = 2): string | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if ((c === '}' || c === ']') && stack.pop() !== c) return undefined;
  }
  if (inString || stack.length === 0 || stack.length > maxMissing) return undefined;
  return text + stack.reverse().join('');
}
