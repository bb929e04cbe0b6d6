// gpt-oss's harmony format: messages `[<|start|>role [to=recipient]]<|channel|>channel
// [to=recipient] [<|constrain|>]type<|message|>body<|end|>|<|call|>|<|return|>`. The recipient may
// stand in the role part (also at the very start of a reply whose prompt ended with
// `<|start|>assistant`) or after the channel name, on the commentary or the analysis channel. A
// message to `functions.x` (or to another tool, not to a role) is a call to x with JSON arguments;
// a tool's own message (`<|start|>functions.x to=assistant`) is not. Any other message keeps its
// body as text and loses its headers. Unaddressed analysis was taken out as reasoning already.
import { readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
// <|eom|> and <|eot|> end Muse Glimmer's messages, which are addressed the same way
const TERMINATORS = ['<|end|>', '<|call|>', '<|return|>', '<|eom|>', '<|eot|>'];
const ROLES = new Set(['assistant', 'user', 'system', 'developer']);
/** a recipient written in the role part before the first token of the reply */
const LEADING_RECIPIENT = /^\s*(?:assistant)?\s*to=[^\s<]+\s*$/;
const MAX_LEADING = 256;

export const harmony: FormatScanner = {
  triggers: [MESSAGE],
  scan: scanHarmony,
};

interface OpenMessage {
  headerStart: number;
  header: string;
  bodyStart: number;
}

/** every harmony token, in one pass */
const TOKENS = /<\|(?:start|channel|message|constrain|end|call|return|eom|eot)\|>/g;

function scanHarmony(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  let pos = 0;
  let headerStart = -1;
  let lastEnd = 0;
  let open: OpenMessage | undefined;
  TOKENS.lastIndex = 0;
  for (;;) {
    const m = TOKENS.exec(text);
    if (!m) break;
    const t = { at: m.index, marker: m[0] };
    pos = TOKENS.lastIndex;
    const terminates = TERMINATORS.includes(t.marker);
    if (open) {
      if (terminates || t.marker === START || t.marker === CHANNEL) {
        spans.push(finish(text, open, t.at, terminates ? pos : t.at, true));
        open = undefined;
        lastEnd = terminates ? pos : t.at;
        headerStart = terminates ? -1 : t.at;
      }
      continue;
    }
    if (t.marker === MESSAGE) {
      let hs = headerStart === -1 ? t.at : headerStart;
      // ` to=functions.x<|channel|>…`: the recipient came before the first token
      if (hs > lastEnd && hs - lastEnd <= MAX_LEADING && LEADING_RECIPIENT.test(text.slice(lastEnd, hs))) hs = lastEnd;
      open = { headerStart: hs, header: text.slice(hs, t.at), bodyStart: pos };
      headerStart = -1;
    } else if (terminates) {
      spans.push({ start: t.at, end: pos, strategy: null, calls: [], explicit: true, closed: true });
      headerStart = -1;
      lastEnd = pos;
    } else if (headerStart === -1) {
      headerStart = t.at;
    }
  }
  if (open) spans.push(finish(text, open, text.length, text.length, false));
  return spans;
}

function withIrregular(call: RawCall, irregular: string | undefined): RawCall {
  if (irregular !== undefined) call.irregular = irregular;
  return call;
}

/** The tool a header addresses, or undefined for a message to a role or to nobody. */
function recipientOf(header: string): string | undefined {
  const m = /(?:^|[\s>])to=([^\s<]+)/.exec(header);
  if (!m) return undefined;
  const recipient = m[1];
  if (recipient.startsWith('functions.')) return recipient.slice('functions.'.length) || undefined;
  return ROLES.has(recipient.toLowerCase()) || recipient === 'self' ? undefined : recipient;
}

/** The role a <|start|> header names: a message written by a tool is a result, not a call. */
function roleOf(header: string): string | undefined {
  return /^<\|start\|>\s*([^\s<]+)/.exec(header)?.[1];
}

function finish(text: string, msg: OpenMessage, bodyEnd: number, end: number, closed: boolean): CallSpan {
  const body = text.slice(msg.bodyStart, bodyEnd);
  const role = roleOf(msg.header);
  const name = role === undefined || role === 'assistant' ? recipientOf(msg.header) : undefined;
  if (name) {
    // gpt-oss's reference parser makes a function call only of a `functions.` recipient
    const irregular = msg.header.includes('to=functions.') ? undefined : `recipient ${name} without the functions. namespace`;
    const i = skipSpace(body, 0);
    if (i === body.length) {
      return {
        start: msg.headerStart,
        end,
        strategy: 'harmony',
        calls: [withIrregular({ name, arguments: {} }, irregular)],
        explicit: true,
        closed,
      };
    }
    const v = readJsonValue(body, i);
    if (v && typeof v.value === 'object' && v.value !== null && !Array.isArray(v.value) && skipSpace(body, v.end) === body.length) {
      const call = withIrregular({ name, arguments: v.value as Record<string, unknown> }, irregular);
      return { start: msg.headerStart, end, strategy: 'harmony', calls: [call], explicit: true, closed };
    }
    // a body in a call format of its own (Muse Glimmer's ATEM block): only the header goes here
    if (body[i] === '<') return { start: msg.headerStart, end: msg.bodyStart, strategy: null, calls: [], explicit: true, closed: true };
  }
  // Muse Glimmer's reasoning is a message to itself
  if (/(?:^|\s)to=self(?:\s|$)/.test(msg.header))
    return { start: msg.headerStart, end, strategy: null, calls: [], explicit: true, closed, keep: '' };
  return { start: msg.headerStart, end, strategy: null, calls: [], explicit: true, closed, keep: body.trim() };
}
