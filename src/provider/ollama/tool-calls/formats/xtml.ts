// Kimi K3's XTML channels: `<|open|>tools<|sep|>` then one block per call,
// `<|open|>call tool="name" index="1"<|sep|>` with `<|open|>argument key="k" type="t"<|sep|>value<|close|>argument<|sep|>`
// pairs, closed by `<|close|>call<|sep|>`; the section closes with `<|close|>tools<|sep|>` (a
// section the output cut off still gives its complete calls, as the reference parser reads it).
// A string argument is kept verbatim; another type is decoded as JSON (text that does not decode
// stays text). Attribute values are XML-unescaped, argument values are not. The response
// channel's markers go and its text stays; `<|close|>message<|sep|>` goes; a think channel is
// reasoning and goes too.
import { createFinder, type MarkerFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import { decodeTyped } from './typed-values';
import type { FormatScanner, ScanContext } from './scan-context';

const SEP = '<|sep|>';
const TOOLS_OPEN = '<|open|>tools<|sep|>';
const TOOLS_CLOSE = '<|close|>tools<|sep|>';
const CALL_OPEN = '<|open|>call';
const CALL_CLOSE = '<|close|>call<|sep|>';
const ARG_OPEN = '<|open|>argument';
const ARG_CLOSE = '<|close|>argument<|sep|>';
const THINK_OPEN = '<|open|>think<|sep|>';
const THINK_CLOSE = '<|close|>think<|sep|>';
const MARKUP = ['<|open|>response<|sep|>', '<|close|>response<|sep|>', '<|close|>message<|sep|>', TOOLS_OPEN, TOOLS_CLOSE];

export const xtml: FormatScanner = { triggers: ['<|open|>', '<|close|>'], scan: scanXtml };

function scanXtml(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const nextCall = createFinder(text, CALL_OPEN);
  const find: Finders = {
    sep: createFinder(text, SEP),
    argOpen: createFinder(text, ARG_OPEN),
    argClose: createFinder(text, ARG_CLOSE),
    callClose: createFinder(text, CALL_CLOSE),
  };
  for (let at = nextCall(0); at !== -1;) {
    const following = nextCall(at + CALL_OPEN.length);
    const call = readCall(text, at, following === -1 ? text.length : following, find);
    if (call) spans.push({ start: at, end: call.end, strategy: 'kimi_k3', calls: [call.call], explicit: true, closed: call.closed });
    at = following;
  }
  for (const token of MARKUP) {
    const next = createFinder(text, token);
    for (let at = next(0); at !== -1; at = next(at + token.length)) spans.push(marker(at, at + token.length));
  }
  // reasoning written in the think channel (or only its close, when the prompt opened it)
  const close = text.indexOf(THINK_CLOSE);
  const open = text.indexOf(THINK_OPEN);
  if (close !== -1 && (open === -1 || open < close)) spans.push(marker(open === -1 ? 0 : open, close + THINK_CLOSE.length));
  else if (open !== -1) spans.push(marker(open, text.length));
  return spans;
}

/** memoised forward searches, so a reply of many calls missing their ends is read in linear time */
interface Finders {
  sep: MarkerFinder;
  argOpen: MarkerFinder;
  argClose: MarkerFinder;
  callClose: MarkerFinder;
}

function marker(start: number, end: number): CallSpan {
  return { start, end, strategy: null, calls: [], explicit: true, closed: true };
}

function readCall(text: string, at: number, limit: number, find: Finders): { call: RawCall; end: number; closed: boolean } | undefined {
  const headEnd = find.sep(at);
  if (headEnd === -1 || headEnd > limit) return undefined;
  const attrs = attributes(text.slice(at + CALL_OPEN.length, headEnd));
  if (attrs.tool === undefined) return undefined;
  const args: Record<string, unknown> = {};
  let irregular: string | undefined;
  let i = headEnd + SEP.length;
  for (;;) {
    const a = find.argOpen(i);
    const c = find.callClose(i);
    if (a === -1 || a >= limit || (c !== -1 && c < a)) {
      if (c !== -1 && c < limit) {
        if (text.slice(i, c).trim()) irregular ??= 'unparsed text between the arguments';
        return { call: { name: attrs.tool, arguments: args, irregular }, end: c + CALL_CLOSE.length, closed: true };
      }
      return { call: { name: attrs.tool, arguments: args, irregular: 'the call was cut off' }, end: limit, closed: false };
    }
    const argHead = find.sep(a);
    if (argHead === -1 || argHead > limit) return undefined;
    const argAttrs = attributes(text.slice(a + ARG_OPEN.length, argHead));
    const vEnd = find.argClose(argHead);
    if (vEnd === -1 || vEnd > limit) {
      if (argAttrs.key !== undefined) args[argAttrs.key] = decodeTyped(text.slice(argHead + SEP.length, limit), argAttrs.type);
      return { call: { name: attrs.tool, arguments: args, irregular: 'the call was cut off' }, end: limit, closed: false };
    }
    if (argAttrs.key !== undefined) args[argAttrs.key] = decodeTyped(text.slice(argHead + SEP.length, vEnd), argAttrs.type);
    else irregular ??= 'an argument without a key';
    i = vEnd + ARG_CLOSE.length;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&lt;': '<', '&gt;': '>', '&apos;': "'", '&#39;': "'" };

function attributes(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"/g;
  for (let m = re.exec(head); m; m = re.exec(head)) out[m[1]] = m[2].replace(/&(?:amp|quot|lt|gt|apos|#39);/g, (e) => ENTITIES[e]);
  return out;
}
