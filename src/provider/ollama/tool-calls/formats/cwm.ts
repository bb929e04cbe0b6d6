// Code World Model ("cursor-style") tool blocks: `<tool: function>` then the tool's name as the
// body's first word and its input after it, closed by `</tool>`:
//   <tool: function>\nterminal find . -name "*.py"\n</tool>
// The input is the arguments when it is a JSON object, else the text under `command` (as the
// reference parser wraps it). The label after `tool:` is informational.
import { readJsonValue } from '../calls/json-calls';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const OPEN = '<tool:';
const CLOSE = '</tool>';

export const cwm: FormatScanner = { triggers: [OPEN], scan: scanCwm };

function scanCwm(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const next = createFinder(text, OPEN);
  const nextClose = createFinder(text, CLOSE);
  for (let at = next(0); at !== -1;) {
    const following = next(at + OPEN.length);
    const headEnd = text.slice(at, at + 64).indexOf('>') + at; // the label is one short word
    const close = headEnd < at ? -1 : nextClose(headEnd);
    if (
      headEnd < at ||
      close === -1 ||
      (following !== -1 && close > following) ||
      !/^\s*[\w.-]+\s*$/.test(text.slice(at + OPEN.length, headEnd))
    ) {
      at = following;
      continue;
    }
    const body = text.slice(headEnd + 1, close).trim();
    const m = /^(\S+)[ \t]*/.exec(body);
    if (m) {
      const input = body.slice(m[0].length).trim();
      let args: Record<string, unknown> = { command: input };
      if (input.startsWith('{')) {
        const v = readJsonValue(input, 0);
        if (v && v.end === input.length && typeof v.value === 'object' && v.value !== null && !Array.isArray(v.value))
          args = v.value as Record<string, unknown>;
      }
      spans.push({
        start: at,
        end: close + CLOSE.length,
        strategy: 'cwm',
        calls: [{ name: m[1], arguments: args }],
        explicit: true,
        closed: true,
      });
    }
    at = following;
  }
  return spans;
}
