// Inkling writes a call as a message of its own: `<|message_model|>name` (the header), then
// `<|content_invoke_tool_json|>{"name": "…", "args": {…}}<|end_message|>`. A payload whose name
// differs from its header's is not a call (the reference parser rejects it); the header and the
// message tokens go with the call.
import { callsFromJson, readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const MESSAGE_MODEL = '<|message_model|>';
const INVOKE_JSON = '<|content_invoke_tool_json|>';
const END = '<|end_message|>';
const MAX_HEADER = 256;

export const inkling: FormatScanner = { triggers: [INVOKE_JSON], scan: scanInkling };

function scanInkling(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const next = createFinder(text, INVOKE_JSON);
  for (let at = next(0); at !== -1; at = next(at + INVOKE_JSON.length)) {
    // the header: the text after the last <|message_model|> before the payload, if it holds no token
    const from = Math.max(0, at - MAX_HEADER);
    const back = text.slice(from, at).lastIndexOf(MESSAGE_MODEL); // a header is a tool name: look back no further
    const h = back === -1 ? -1 : from + back;
    const headerText = h === -1 ? undefined : text.slice(h + MESSAGE_MODEL.length, at);
    const header = headerText !== undefined && !headerText.includes('<|') ? headerText.trim() : undefined;
    const start = header !== undefined ? h : at;
    // the payload ends before the next one starts: reading no further keeps broken payloads linear
    const following = next(at + INVOKE_JSON.length);
    const payloadStart = skipSpace(text, at + INVOKE_JSON.length);
    const read = readJsonValue(following === -1 ? text.slice(payloadStart) : text.slice(payloadStart, following), 0);
    const v = read && { value: read.value, end: payloadStart + read.end };
    if (!v) continue;
    const calls = callsFromJson(v.value);
    if (!calls || calls.length !== 1) continue;
    const closeAt = skipSpace(text, v.end);
    const closed = text.startsWith(END, closeAt);
    const call = calls[0];
    if (header && header !== call.name) call.irregular ??= `header ${header} names another tool than its payload`;
    if (!closed) call.irregular ??= `${END} missing`;
    spans.push({ start, end: closed ? closeAt + END.length : v.end, strategy: 'tool_call_tag', calls, explicit: true, closed });
  }
  return spans;
}
