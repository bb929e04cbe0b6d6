// gpt-oss's harmony format: messages `[<|start|>role]<|channel|>name [to=recipient]
// [<|constrain|>json]<|message|>body<|end|>|<|call|>|<|return|>`. A message with a recipient is a
// call (`to=functions.get_weather` → get_weather, body = JSON arguments); any other message keeps
// its body as text and loses its headers. Analysis messages were taken out as reasoning already.
import { readJsonValue } from '../json-calls';
import { skipSpace } from '../literal-parser';
import { findFirst, finders } from '../marker-finder';
import type { CallSpan } from '../types';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
const CONSTRAIN = '<|constrain|>';
const TERMINATORS = ['<|end|>', '<|call|>', '<|return|>'];

interface OpenMessage {
  headerStart: number;
  header: string;
  bodyStart: number;
}

export function scanHarmony(text: string): CallSpan[] {
  if (!text.includes(MESSAGE)) return [];
  const spans: CallSpan[] = [];
  const tokens = finders(text, [START, CHANNEL, MESSAGE, CONSTRAIN, ...TERMINATORS]);
  let pos = 0;
  let headerStart = -1;
  let open: OpenMessage | undefined;
  for (;;) {
    const t = findFirst(tokens, pos);
    if (!t) break;
    pos = t.at + t.marker.length;
    const terminates = TERMINATORS.includes(t.marker);
    if (open) {
      if (terminates || t.marker === START || t.marker === CHANNEL) {
        spans.push(finish(text, open, t.at, terminates ? pos : t.at, true));
        open = undefined;
        headerStart = terminates ? -1 : t.at;
      }
      continue;
    }
    if (t.marker === MESSAGE) {
      const hs = headerStart === -1 ? t.at : headerStart;
      open = { headerStart: hs, header: text.slice(hs, t.at), bodyStart: pos };
      headerStart = -1;
    } else if (terminates) {
      spans.push({ start: t.at, end: pos, strategy: null, calls: [], explicit: true, closed: true });
      headerStart = -1;
    } else if (headerStart === -1) {
      headerStart = t.at;
    }
  }
  if (open) spans.push(finish(text, open, text.length, text.length, false));
  return spans;
}

function finish(text: string, msg: OpenMessage, bodyEnd: number, end: number, closed: boolean): CallSpan {
  const body = text.slice(msg.bodyStart, bodyEnd);
  const recipient = /to=([^\s<]+)/.exec(msg.header)?.[1];
  if (recipient) {
    const name = recipient.replace(/^functions\./, '');
    const i = skipSpace(body, 0);
    if (i === body.length) {
      return { start: msg.headerStart, end, strategy: 'harmony', calls: [{ name, arguments: {} }], explicit: true, closed };
    }
    const v = readJsonValue(body, i);
    if (v && typeof v.value === 'object' && v.value !== null && !Array.isArray(v.value) && skipSpace(body, v.end) === body.length) {
      const call = { name, arguments: v.value as Record<string, unknown> };
      return { start: msg.headerStart, end, strategy: 'harmony', calls: [call], explicit: true, closed };
    }
  }
  return { start: msg.headerStart, end, strategy: null, calls: [], explicit: true, closed, keep: body.trim() };
}
