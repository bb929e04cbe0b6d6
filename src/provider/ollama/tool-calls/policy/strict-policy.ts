// What strict extraction allows of calls written without any marker. The reference parsers read a
// bare call only where their family writes one without its opening token: a JSON call object or
// list that opens the reply (Llama 3.x JSON, Granite, llama.cpp's generic format), and a Python call
// list that is the whole reply (vLLM's pythonic parser, Llama 3.2/4). Bare calls anywhere else, and
// a tool name on a line with JSON after it, are lenient repairs: strict leaves them as text — but
// where the model's family is known and its parser reads one more place (RWKV: a call object
// filling a ```json fence), strict reads it there too.
import { rwkvReadsBareFence } from '../formats/rwkv';
import type { ParserFamily } from './parser-family';
import type { CallSpan, DroppedCall } from '../types';

/** Why strict extraction refuses this marker-less span, or undefined when its family allows it there. */
export function bareCallRefusal(text: string, span: CallSpan, family?: ParserFamily): string | undefined {
  const opensReply = firstNonSpace(text) === span.start;
  if (span.strategy === 'json') {
    if (opensReply || (family === 'rwkv' && rwkvReadsBareFence(text, span))) return undefined;
    return 'a bare JSON call that does not open the reply';
  }
  if (span.strategy === 'pythonic')
    return opensReply && lastNonSpace(text) === span.end ? undefined : 'a bare Python call that is not the whole reply';
  return `a bare call (${span.strategy ?? 'unmarked'}) that no reference parser reads`;
}

/** The marker-less spans strict extraction keeps, and the calls it refuses (as `dropped` records). */
export function strictLooseSpans(
  text: string,
  spans: readonly CallSpan[],
  family?: ParserFamily,
): { kept: CallSpan[]; refused: DroppedCall[] } {
  const kept: CallSpan[] = [];
  const refused: DroppedCall[] = [];
  for (const span of spans) {
    const why = bareCallRefusal(text, span, family);
    if (why === undefined) kept.push(span);
    else
      for (const c of span.calls)
        refused.push({ name: c.name, arguments: c.arguments, strategy: span.strategy, reason: 'strict_rejected', detail: why });
  }
  return { kept, refused };
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function lastNonSpace(text: string): number {
  let i = text.length;
  while (i > 0 && isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
