// <function=name>…</function> and <invoke name="…">…</invoke> written without a <tool_call>
// wrapper around them, as Qwen3-Coder and MiniMax often do. (Inside a wrapper, the wrapper's scan
// claims them first.)
import { createFinder } from '../marker-finder';
import type { CallSpan } from '../types';
import { parseInvokes, parseXmlFunctions, type BodyParse } from './xml-bodies';

export function scanXmlTags(text: string): CallSpan[] {
  return [
    ...scanElements(text, '<function=', '</function>', (r) => parseXmlFunctions(r, 0), 'xml_function'),
    ...scanElements(text, '<invoke', '</invoke>', (r) => parseInvokes(r, 0), 'xml_invoke'),
  ];
}

function scanElements(
  text: string,
  open: string,
  close: string,
  parse: (region: string) => BodyParse | undefined,
  strategy: 'xml_function' | 'xml_invoke',
): CallSpan[] {
  const spans: CallSpan[] = [];
  const nextOpen = createFinder(text, open);
  let at = nextOpen(0);
  while (at !== -1) {
    const following = nextOpen(at + open.length);
    const regionEnd = following === -1 ? text.length : following;
    const region = text.slice(at, regionEnd);
    const parsed = parse(region);
    if (parsed && parsed.calls.length > 0) {
      const closed = region.endsWith(close, parsed.end);
      if (closed || parsed.complete) {
        spans.push({ start: at, end: at + parsed.end, strategy, calls: parsed.calls, explicit: true, closed });
      }
    }
    at = following;
  }
  return spans;
}
