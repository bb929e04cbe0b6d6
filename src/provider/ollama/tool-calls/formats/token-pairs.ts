// Formats of 2025–26 that write a call as a name followed by key/value pairs between special
// tokens (or JSON arguments between them), each with its own token spelling:
//   K2 Horizon / K2-V3 (IFM)  <ifm|tool_calls><ifm|tool_call>name<ifm|arg_key>k</ifm|arg_key>
//                             [<ifm|arg_type>t</ifm|arg_type>]<ifm|arg_value>v</ifm|arg_value></ifm|tool_call>
//                             or <ifm|tool_call>{"name": …, "arguments": …}</ifm|tool_call>
//   Hunyuan HY-V4             <tool_calls:SUFFIX><tool_call:SUFFIX>name<arg_key:SUFFIX>k</arg_key:SUFFIX>…
//                             (the suffix is the checkpoint's, e.g. `:opensource`)
//   Solar Open 2              <|tool_call:start|>name\n<|tool_arg:start|>k<|tool_arg:value|>v<|tool_arg:end|>…<|tool_call:end|>
//   PLaMo 3                   <|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>name…{json}…
// Values are text; the declared schema types them afterwards (as the reference parsers do), and
// an inline type (IFM's <ifm|arg_type>) decodes a non-string value. What the reference parser
// rejects (a call cut off, a section never closed, junk between pairs, an empty name) is read
// only by repair and marked irregular, so strict drops it.
import { callsFromJson, readCallList, readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { pushAll } from '../scan/collections';
import { createFinder, ScratchFinder } from '../scan/marker-finder';
import type { CallSpan, ExtractionStrategy, RawCall } from '../types';
import { decodeTyped } from './typed-values';
import type { FormatScanner, ScanContext } from './scan-context';

interface PairDialect {
  strategy: ExtractionStrategy;
  /** a section around the calls (removed with them); `sectionRequired`: the reference parser reads calls only inside one */
  section?: [string, string];
  sectionRequired?: boolean;
  callOpen: string;
  callClose: string;
  /** a call may also end where the next one starts, a value where the next key starts: the reference parser recovers these (Solar) */
  closeAtNextCall?: boolean;
  /** how the name is written: up to the first token (`head`), the rest of the first line (`line`), or between tokens */
  name: 'head' | 'line' | [string, string];
  key?: [string, string];
  type?: [string, string];
  value?: [string, string];
  /** JSON arguments between these tokens instead of pairs */
  json?: [string, string];
  /** a call body that is a JSON call object (IFM's json dialect) */
  jsonBody?: boolean;
  /** the same key written twice keeps its first value (Solar) rather than its last */
  firstKeyWins?: boolean;
  /** tokens that are markup only, removed wherever they stand */
  extraTokens?: string[];
}

const IFM: PairDialect = {
  strategy: 'ifm',
  section: ['<ifm|tool_calls>', '</ifm|tool_calls>'],
  callOpen: '<ifm|tool_call>',
  callClose: '</ifm|tool_call>',
  name: 'head',
  key: ['<ifm|arg_key>', '</ifm|arg_key>'],
  type: ['<ifm|arg_type>', '</ifm|arg_type>'],
  value: ['<ifm|arg_value>', '</ifm|arg_value>'],
  jsonBody: true,
};

const SOLAR: PairDialect = {
  strategy: 'solar_open',
  callOpen: '<|tool_call:start|>',
  callClose: '<|tool_call:end|>',
  closeAtNextCall: true,
  name: 'line',
  key: ['<|tool_arg:start|>', '<|tool_arg:value|>'],
  value: ['', '<|tool_arg:end|>'],
  firstKeyWins: true,
};

const PLAMO_ARGS = '<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>';
const PLAMO: PairDialect = {
  strategy: 'plamo',
  section: ['<|plamo:begin_tool_requests:plamo|>', '<|plamo:end_tool_requests:plamo|>'],
  sectionRequired: true,
  callOpen: '<|plamo:begin_tool_request:plamo|>',
  callClose: '<|plamo:end_tool_request:plamo|>',
  name: ['<|plamo:begin_tool_name:plamo|>', '<|plamo:end_tool_name:plamo|>'],
  json: [PLAMO_ARGS, '<|plamo:end_tool_arguments:plamo|>'],
  extraTokens: ['<|plamo:tag|>'],
};

/** Hunyuan's tokens carry a checkpoint suffix; the dialect is built for the suffix found. */
function hunyuan(suffix: string): PairDialect {
  return {
    strategy: 'hunyuan',
    section: [`<tool_calls${suffix}>`, `</tool_calls${suffix}>`],
    sectionRequired: true,
    callOpen: `<tool_call${suffix}>`,
    callClose: `</tool_call${suffix}>`,
    name: 'head',
    key: [`<arg_key${suffix}>`, `</arg_key${suffix}>`],
    value: [`<arg_value${suffix}>`, `</arg_value${suffix}>`],
  };
}

const STATIC = [IFM, SOLAR, PLAMO];
const HY_OPEN = '<tool_call:';
const TOOL_CALL = '<tool_call';

export const tokenPairs: FormatScanner = {
  triggers: [IFM.callOpen, SOLAR.callOpen, PLAMO.callOpen, HY_OPEN],
  scan: (ctx: ScanContext) => {
    const spans: CallSpan[] = [];
    // pushAll, not push(...): a hostile reply yields tens of thousands of spans
    for (const d of STATIC) if (ctx.text.includes(d.callOpen)) pushAll(spans, scanDialect(ctx.text, d));
    if (ctx.text.includes(HY_OPEN)) for (const suffix of suffixesOf(ctx.text)) pushAll(spans, scanDialect(ctx.text, hunyuan(suffix)));
    return spans;
  },
};

/** The distinct `:suffix` spellings of `<tool_call:suffix>` in the text. */
function suffixesOf(text: string): string[] {
  const out = new Set<string>();
  const next = createFinder(text, HY_OPEN);
  for (let at = next(0); at !== -1 && out.size < 4; at = next(at + HY_OPEN.length)) {
    if (spelledAsSeen(text, at, out)) continue; // the usual case: the suffix of every call before
    const head = text.slice(at, at + 64); // a suffix is short: look no further
    const end = head.indexOf('>');
    const suffix = end === -1 ? '' : head.slice('<tool_call'.length, end);
    if (suffix.length > 1 && suffix.length <= 40 && !/[\s<"]/.test(suffix)) out.add(suffix);
  }
  return [...out];
}

/** Whether the token at `at` is `<tool_call` + a suffix already in `seen`, then `>`. */
function spelledAsSeen(text: string, at: number, seen: ReadonlySet<string>): boolean {
  for (const suffix of seen) {
    if (text.startsWith(suffix, at + TOOL_CALL.length) && text.charCodeAt(at + TOOL_CALL.length + suffix.length) === 62 /* > */)
      return true;
  }
  return false;
}

function scanDialect(text: string, d: PairDialect): CallSpan[] {
  const spans: CallSpan[] = [];
  const nextCall = createFinder(text, d.callOpen);
  const nextClose = createFinder(text, d.callClose);
  const sections = d.section ? sectionRanges(text, d.section) : [];
  let si = -1; // the last section opened before the call being read
  // the repair notes, made once per scan rather than once per call
  let cutOff: string | undefined;
  let unsectioned: string | undefined;
  for (let at = nextCall(0); at !== -1;) {
    const bodyStart = at + d.callOpen.length;
    const following = nextCall(bodyStart);
    let close = nextClose(bodyStart);
    if (following !== -1 && close > following) close = -1; // this call's end is missing: the next call starts first
    let bodyEnd: number;
    let end: number;
    let closed = true;
    let irregular: string | undefined;
    if (close !== -1) {
      bodyEnd = close;
      end = close + d.callClose.length;
    } else if (following !== -1 && d.closeAtNextCall) {
      bodyEnd = end = following;
    } else {
      bodyEnd = end = following === -1 ? text.length : following;
      closed = false;
      irregular = cutOff ??= `${d.callClose} missing: the call was cut off`;
    }
    const body = text.slice(bodyStart, bodyEnd);
    const parsed = parseBody(body, d);
    if (parsed) {
      while (si + 1 < sections.length && sections[si + 1].start <= at) si++;
      const section = si >= 0 && at < sections[si].end ? sections[si] : undefined;
      // a section opened and never closed is cut-off output to every reference parser
      if ((d.sectionRequired && !section) || (section && !section.closed))
        irregular ??= unsectioned ??= `${d.section?.[1]} missing around the call`;
      irregular ??= parsed.irregular;
      // parseBody's calls are fresh objects of this body alone: noted in place, not copied (one copy
      // per call was the dearest step of a reply of cut-off calls)
      if (irregular) for (const c of parsed.calls) c.irregular = irregular;
      spans.push({ start: at, end, strategy: d.strategy, calls: parsed.calls, explicit: true, closed });
    }
    at = following;
  }
  if (spans.length) pushAll(spans, tokenSpans(text, [...(d.section ?? []), ...(d.extraTokens ?? [])]));
  return spans;
}

interface Section {
  start: number;
  end: number;
  closed: boolean;
}

function sectionRanges(text: string, [open, close]: [string, string]): Section[] {
  const out: Section[] = [];
  const next = createFinder(text, open);
  const nextClose = createFinder(text, close);
  for (let at = next(0); at !== -1; at = next(at + open.length)) {
    const c = nextClose(at + open.length);
    out.push({ start: at, end: c === -1 ? text.length : c, closed: c !== -1 });
  }
  return out;
}

function tokenSpans(text: string, tokens: readonly string[]): CallSpan[] {
  const out: CallSpan[] = [];
  for (const token of tokens) {
    const next = createFinder(text, token);
    for (let at = next(0); at !== -1; at = next(at + token.length))
      out.push({ start: at, end: at + token.length, strategy: null, calls: [], explicit: true, closed: true });
  }
  return out;
}

// parseBody's finders (it calls nothing that reads pairs, so one set serves every body)
const KEY = new ScratchFinder();
const KEY_CLOSE = new ScratchFinder();
const VALUE_CLOSE = new ScratchFinder();
const TYPE_CLOSE = new ScratchFinder();

function parseBody(body: string, d: PairDialect): { calls: RawCall[]; irregular?: string } | undefined {
  if (d.jsonBody) {
    const i = skipSpace(body, 0);
    if (body[i] === '{' || body[i] === '[') {
      const list = body[i] === '[' ? readCallList(body, i, callsFromJson) : undefined;
      if (list) return { calls: list.calls };
      const v = readJsonValue(body, i);
      const calls = v && callsFromJson(v.value);
      return calls && calls.length ? { calls } : undefined;
    }
  }
  const head = readName(body, d);
  if (!head) return undefined;
  let irregular: string | undefined = head.name === '' ? 'the call has no name' : undefined;
  const args: Record<string, unknown> = {};
  let i = head.end;
  if (d.json) {
    const open = body.indexOf(d.json[0], i);
    if (open === -1) return body.slice(i).trim() ? undefined : { calls: [{ name: head.name, arguments: {} }], irregular };
    const close = body.indexOf(d.json[1], open);
    const text = body.slice(open + d.json[0].length, close === -1 ? body.length : close);
    const v = readJsonValue(text, skipSpace(text, 0));
    if (!v || typeof v.value !== 'object' || v.value === null || Array.isArray(v.value)) return undefined;
    return {
      calls: [{ name: head.name, arguments: v.value as Record<string, unknown> }],
      irregular: close === -1 ? `${d.json[1]} missing` : irregular,
    };
  }
  const [keyOpen, keyClose] = d.key as [string, string];
  const [valueOpen, valueClose] = d.value as [string, string];
  // memoised forward searches: a body of many pairs missing their ends stays linear (scratch
  // finders, reset per body: a reply may hold tens of thousands of bodies)
  const keys = KEY.reset(body, keyOpen);
  const keyCloses = KEY_CLOSE.reset(body, keyClose);
  const valueCloses = VALUE_CLOSE.reset(body, valueClose);
  const typeCloses = d.type ? TYPE_CLOSE.reset(body, d.type[1]) : undefined;
  while (i < body.length) {
    const k = keys.find(i);
    if (k === -1) {
      if (body.slice(i).trim()) irregular ??= `unparsed text after the arguments`;
      break;
    }
    if (body.slice(i, k).trim()) irregular ??= `unparsed text between the arguments`;
    const kc = keyCloses.find(k + keyOpen.length);
    if (kc === -1) {
      irregular ??= `${keyClose} missing`;
      break;
    }
    const key = body.slice(k + keyOpen.length, kc).trim();
    let j = kc + keyClose.length;
    let type: string | undefined;
    if (d.type && body.startsWith(d.type[0], skipSpace(body, j))) {
      const t = skipSpace(body, j) + d.type[0].length;
      const tc = (typeCloses as ScratchFinder).find(t);
      if (tc !== -1) {
        type = body.slice(t, tc).trim();
        j = tc + d.type[1].length;
      }
    }
    let vStart: number;
    if (valueOpen) {
      const v = skipSpace(body, j);
      if (!body.startsWith(valueOpen, v)) {
        irregular ??= `${valueOpen} missing after key ${key}`;
        i = j;
        continue;
      }
      vStart = v + valueOpen.length;
    } else vStart = j;
    let vEnd = valueCloses.find(vStart);
    let next: number;
    if (vEnd === -1) {
      // the value's end token is missing: it runs to the next key (or the end of the call)
      const following = keys.find(vStart);
      vEnd = following === -1 ? body.length : following;
      next = vEnd;
      if (!d.closeAtNextCall) irregular ??= `${valueClose} missing after key ${key}`;
    } else next = vEnd + valueClose.length;
    if (key && !(d.firstKeyWins && key in args)) args[key] = decodeTyped(body.slice(vStart, vEnd), type);
    i = next;
  }
  return { calls: [{ name: head.name, arguments: args }], irregular };
}

function readName(body: string, d: PairDialect): { name: string; end: number } | undefined {
  if (Array.isArray(d.name)) {
    const o = body.indexOf(d.name[0]);
    if (o === -1) return undefined;
    const c = body.indexOf(d.name[1], o);
    if (c === -1) return undefined;
    return { name: body.slice(o + d.name[0].length, c).trim(), end: c + d.name[1].length };
  }
  if (d.name === 'line') {
    const nl = body.indexOf('\n');
    const stop = firstOf(body, [nl === -1 ? -1 : nl, body.indexOf(d.key?.[0] ?? '\u0000')]);
    const end = stop === -1 ? body.length : stop;
    const name = body.slice(0, end).trim();
    if (name.includes('<|')) return undefined;
    return { name, end: nl === end ? end + 1 : end };
  }
  const stop = body.indexOf('<');
  const end = stop === -1 ? body.length : stop;
  const name = body.slice(0, end).trim();
  if (stop !== -1 && !body.startsWith(d.key?.[0] ?? '\u0000', stop)) return undefined; // junk where the pairs belong
  if (name === '' && stop === -1) return undefined;
  return { name, end };
}

function firstOf(_text: string, positions: number[]): number {
  let best = -1;
  for (const p of positions) if (p !== -1 && (best === -1 || p < best)) best = p;
  return best;
}
