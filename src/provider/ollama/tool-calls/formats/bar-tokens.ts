// Calls written between a model's own `<｜…｜>` / `<|…|>` special tokens:
//   DeepSeek R1/V3  <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>name\n```json\n{…}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//   DeepSeek V3.1   <｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
//   Step-3          <｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="x">…</steptml:invoke><｜tool_call_end｜>
//                   (or the name after the separator: function<｜tool_sep｜>name + JSON or parameters)
//   Kimi K2         <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>
// The words of a token are joined by ▁, _, a space or an escaped \_ depending on model and
// decoding, and the bars are full-width or ASCII: all spell the same token. R1 distills also
// open the section with <｜tool▁calls｜> and drop the call-begin token before `function<｜tool▁sep｜>`.
import { readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import type { CallSpan, ExtractionStrategy, RawCall } from '../types';
import { isInvokeStart, parseInvokes } from './invoke-bodies';
import type { FormatScanner, ScanContext } from './scan-context';

type TokenKind = 'section' | 'call_begin' | 'sep' | 'argument_begin' | 'call_end';

interface Token {
  start: number;
  end: number;
  kind: TokenKind;
  /** a spelling no reference parser reads (ASCII bars with ▁, spaces, escaped \_, capitals): a look-alike */
  lookAlike?: boolean;
}

/**
 * The spellings the reference parsers read: DeepSeek's full-width bars with ▁, Step-3's full-width
 * bars with _, Kimi's ASCII bars with _ (llama.cpp's variants of the section opener are markers only).
 */
const REFERENCE_SPELLING = /^<(?:｜[a-z]+(?:▁[a-z]+)*｜|｜[a-z]+(?:_[a-z]+)*｜|\|[a-z]+(?:_[a-z]+)*\|)>$/;

const KINDS = new Map<string, TokenKind>([
  ['tool_calls_begin', 'section'],
  ['tool_calls', 'section'],
  ['tool_calls_end', 'section'],
  ['tool_calls_section_begin', 'section'],
  ['tool_calls_section_end', 'section'],
  ['tool_call_begin', 'call_begin'],
  ['tool_sep', 'sep'],
  ['tool_call_argument_begin', 'argument_begin'],
  ['tool_call_end', 'call_end'],
]);

const TOKEN = /<[｜|]([A-Za-z▁_ \\]{3,40})[｜|]>/y;
const kindCache = new Map<string, TokenKind | undefined>();

/** The kind a token's spelling names, whichever separators and case it was written with. */
function kindOf(spelling: string): TokenKind | undefined {
  if (kindCache.has(spelling)) return kindCache.get(spelling);
  const kind = KINDS.get(spelling.replace(/\\_|[▁ _]+/g, '_').toLowerCase());
  if (kindCache.size < 256) kindCache.set(spelling, kind);
  return kind;
}

const MAX_NAME = 200;

export const barTokens: FormatScanner = {
  triggers: [
    '<｜tool',
    '<|tool▁',
    '<|tool_call_begin|>',
    '<|tool_calls_section_begin|>',
    '<|tool_sep|>',
    '<|tool_calls_begin|>',
    '<|tool calls',
  ],
  scan: scanBarTokens,
};

function scanBarTokens(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const tokens = readTokens(text);
  const spans: CallSpan[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'section' || t.kind === 'call_end') {
      spans.push({ start: t.start, end: t.end, strategy: null, calls: [], explicit: true, closed: true });
      continue;
    }
    let headerStart: number;
    let sepIndex: number;
    if (t.kind === 'call_begin') {
      const next = tokens[k + 1];
      if (!next || (next.kind !== 'sep' && next.kind !== 'argument_begin')) continue;
      headerStart = t.end;
      sepIndex = k + 1;
    } else {
      // a separator with no call-begin before it: the header runs back to the previous token
      headerStart = headerBefore(text, t.start, k > 0 ? tokens[k - 1].end : 0);
      sepIndex = k;
    }
    const sep = tokens[sepIndex];
    const bodyLimit = nextBoundary(tokens, sepIndex + 1, text.length);
    // without its call-begin token a call is recognised only with arguments after the separator
    const call = parseCall(text.slice(headerStart, sep.start), text.slice(sep.end, bodyLimit.at), sep.kind, t.kind === 'call_begin');
    const callStart = t.kind === 'call_begin' ? t.start : headerStart;
    k = sepIndex;
    if (!call) continue;
    const bodyEnd = sep.end + call.end;
    const closer = bodyLimit.token;
    const closed = closer?.kind === 'call_end' && skipSpace(text, bodyEnd) === closer.start;
    if (closed) k = sepIndex + 1;
    const odd = [t, sep, closed ? closer : undefined].find((token) => token?.lookAlike);
    if (odd) for (const c of call.calls) c.irregular ??= `look-alike of a special token: ${text.slice(odd.start, odd.end)}`;
    spans.push({
      start: callStart,
      end: closed ? (closer as Token).end : bodyEnd,
      strategy: call.strategy,
      calls: call.calls,
      explicit: true,
      closed,
    });
  }
  return spans;
}

function readTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let i = text.indexOf('<');
  while (i !== -1) {
    const bar = text[i + 1];
    if (bar === '｜' || bar === '|') {
      TOKEN.lastIndex = i;
      const m = TOKEN.exec(text);
      const kind = m ? kindOf(m[1]) : undefined;
      if (m && kind) tokens.push({ start: i, end: i + m[0].length, kind, lookAlike: !REFERENCE_SPELLING.test(m[0]) });
    }
    i = text.indexOf('<', i + 1);
  }
  return tokens;
}

/** Where the call's body ends: at the next token that is not part of the body, or the end. */
function nextBoundary(tokens: Token[], from: number, length: number): { at: number; token?: Token } {
  const token = tokens[from];
  return token ? { at: token.start, token } : { at: length };
}

/** The header of a call whose call-begin token is missing: the word(s) just before the separator. */
function headerBefore(text: string, sepAt: number, floor: number): number {
  const from = Math.max(floor, sepAt - MAX_NAME);
  const m = /[\w.:-]+[ \t]*$/.exec(text.slice(from, sepAt));
  return m ? from + m.index : sepAt;
}

function parseCall(
  header: string,
  body: string,
  sepKind: TokenKind,
  begun: boolean,
): { calls: RawCall[]; end: number; strategy: ExtractionStrategy } | undefined {
  const head = header.trim();
  if (sepKind === 'argument_begin') {
    // functions.get_weather:0 — the namespace and the call index are protocol, not the name
    const name = head.replace(/^functions\./, '').replace(/:\d+$/, '');
    const args = readArgs(body, 0);
    return isName(name) && args ? { calls: [{ name, arguments: args.value }], end: args.end, strategy: 'kimi' } : undefined;
  }
  if (head === '' || head === 'function') {
    const i = skipSpace(body, 0);
    if (isInvokeStart(body, i)) {
      const r = parseInvokes(body, i);
      return r && r.complete ? { calls: r.calls, end: r.end, strategy: 'step3' } : undefined;
    }
    // the name follows the separator, then its arguments (R1: on the next line, in a fence)
    const m = /^[ \t]*([^\s`{<]+)/.exec(body.slice(0, MAX_NAME + 8));
    if (!m || !isName(m[1])) return undefined;
    const rest = readBody(body, m[0].length);
    if (!begun && rest && Object.keys(rest.args).length === 0 && skipSpace(body, m[0].length) === body.length) return undefined;
    return rest && { calls: [{ name: m[1], arguments: rest.args }], end: rest.end, strategy: rest.steptml ? 'step3' : 'deepseek' };
  }
  if (!isName(head)) return undefined;
  const rest = readBody(body, 0);
  return rest && { calls: [{ name: head, arguments: rest.args }], end: rest.end, strategy: rest.steptml ? 'step3' : 'deepseek' };
}

function isName(name: string): boolean {
  return name !== '' && name.length <= MAX_NAME && !/[\s<>{}]/.test(name);
}

/** The arguments after a call's name: a JSON object (maybe fenced), steptml parameters, or none. */
function readBody(body: string, pos: number): { args: Record<string, unknown>; end: number; steptml?: boolean } | undefined {
  const i = skipSpace(body, pos);
  if (i === body.length) return { args: {}, end: pos };
  if (body.startsWith('<steptml:parameter', i) || body.startsWith('<parameter', i)) {
    // parameters without their invoke element: read them as the body of one
    const r = parseInvokes(`<steptml:invoke name="_">${body.slice(i)}</steptml:invoke>`, 0);
    if (!r) return undefined;
    const consumed = r.end - '<steptml:invoke name="_">'.length - (r.complete ? '</steptml:invoke>'.length : 0);
    return { args: r.calls[0].arguments, end: i + consumed, steptml: true };
  }
  const args = readArgs(body, pos);
  return args && { args: args.value, end: args.end };
}

/** A JSON object, possibly in a ``` fence. */
function readArgs(region: string, pos: number): { value: Record<string, unknown>; end: number } | undefined {
  let i = skipSpace(region, pos);
  const fenced = region.startsWith('```', i);
  if (fenced) {
    const nl = region.indexOf('\n', i);
    if (nl === -1) return undefined;
    i = skipSpace(region, nl + 1);
  }
  const v = readJsonValue(region, i);
  if (!v || typeof v.value !== 'object' || v.value === null || Array.isArray(v.value)) return undefined;
  let end = v.end;
  if (fenced) {
    const j = skipSpace(region, end);
    if (region.startsWith('```', j)) end = j + 3;
  }
  return { value: v.value as Record<string, unknown>, end };
}
