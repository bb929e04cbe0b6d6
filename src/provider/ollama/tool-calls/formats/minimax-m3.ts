// MiniMax M3 writes every tag of its calls behind a namespace token, `]<]minimax[>[`:
//   NS<tool_call> NS<invoke name="create_order"> NS<user_id>42NS</user_id>
//   NS<shipping> NS<city>SingaporeNS</city> NS</shipping> NS</invoke> NS</tool_call>
// A parameter is an element; an element holding elements is an object, a repeated child name a
// list, and children all named <item> a list of their values. Leaf values are text, typed by the
// declared schema afterwards (nested properties included). A call cut off before its </invoke>
// is read only by repair (strict drops it); the reference parser keeps the complete invokes.
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

export const NS = ']<]minimax[>[';
const OPEN = `${NS}<tool_call>`;
const CLOSE = `${NS}</tool_call>`;
const INVOKE = `${NS}<invoke`;
const MAX_DEPTH = 16;

export const minimaxM3: FormatScanner = { triggers: [INVOKE], scan: scanMinimaxM3 };

function scanMinimaxM3(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const nextInvoke = createFinder(text, INVOKE);
  for (let at = nextInvoke(0); at !== -1;) {
    const following = nextInvoke(at + INVOKE.length);
    const limit = following === -1 ? text.length : following;
    const read = readInvoke(text, at, limit);
    if (read) spans.push({ start: at, end: read.end, strategy: 'minimax_m3', calls: [read.call], explicit: true, closed: read.closed });
    at = following;
  }
  if (spans.length === 0) return spans;
  for (const token of [OPEN, CLOSE]) {
    const next = createFinder(text, token);
    for (let at = next(0); at !== -1; at = next(at + token.length))
      spans.push({ start: at, end: at + token.length, strategy: null, calls: [], explicit: true, closed: true });
  }
  return spans;
}

interface Element {
  name: string;
  children: Element[];
  text: string;
}

function readInvoke(text: string, at: number, limit: number): { call: RawCall; end: number; closed: boolean } | undefined {
  const headEnd = text.indexOf('>', at + INVOKE.length);
  if (headEnd === -1 || headEnd >= limit) return undefined;
  const m = /^\s+name\s*=\s*"([^"]*)"\s*$/.exec(text.slice(at + INVOKE.length, headEnd));
  if (!m) return undefined;
  const root: Element = { name: 'invoke', children: [], text: '' };
  const stack: Element[] = [root];
  let i = headEnd + 1;
  let irregular: string | undefined;
  while (i < limit) {
    const t = text.indexOf(NS, i);
    const stop = t === -1 || t >= limit ? limit : t;
    stack[stack.length - 1].text += text.slice(i, stop);
    if (stop === limit) break;
    const tagStart = t + NS.length;
    const tagEnd = text.indexOf('>', tagStart);
    if (text[tagStart] !== '<' || tagEnd === -1 || tagEnd >= limit) {
      stack[stack.length - 1].text += NS;
      i = tagStart;
      continue;
    }
    const tag = text.slice(tagStart + 1, tagEnd).trim();
    i = tagEnd + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (name === 'invoke') {
        if (stack.length > 1) irregular ??= `<${stack[stack.length - 1].name}> never closed`;
        return { call: { name: m[1], arguments: objectOf(root), irregular }, end: i, closed: true };
      }
      const open = stack.findIndex((e, k) => k > 0 && e.name === name);
      if (open === -1) {
        irregular ??= `</${name}> closes nothing`;
        continue;
      }
      if (open !== stack.length - 1) irregular ??= `<${stack[stack.length - 1].name}> never closed`;
      stack.length = open;
    } else if (/^[\w.-]+$/.test(tag) && stack.length < MAX_DEPTH) {
      const el: Element = { name: tag, children: [], text: '' };
      stack[stack.length - 1].children.push(el);
      stack.push(el);
    } else {
      stack[stack.length - 1].text += text.slice(t, i);
    }
  }
  return { call: { name: m[1], arguments: objectOf(root), irregular: 'the call was cut off before </invoke>' }, end: limit, closed: false };
}

function objectOf(el: Element): Record<string, unknown> {
  const grouped = new Map<string, unknown[]>();
  for (const child of el.children) {
    const values = grouped.get(child.name);
    if (values) values.push(valueOf(child));
    else grouped.set(child.name, [valueOf(child)]);
  }
  const out: Record<string, unknown> = {};
  // a child name written twice is a list of its values
  for (const [name, values] of grouped) out[name] = values.length === 1 ? values[0] : values;
  return out;
}

function valueOf(el: Element): unknown {
  if (el.children.length === 0) return el.text;
  if (el.children.every((c) => c.name === 'item')) return el.children.map(valueOf);
  return objectOf(el);
}
