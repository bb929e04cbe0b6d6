// Call elements written without a wrapper around them: Qwen3-Coder's <function=name>…</function>,
// MiniMax's <invoke name="…">, Step-3's <steptml:invoke>, DeepSeek V3.2's <｜DSML｜invoke> and
// Hermes-style <function name="…">{…}</function>. (Inside a wrapper, the wrapper's scan claims
// them first.)
import { createFinder } from '../scan/marker-finder';
import type { CallSpan, ExtractionStrategy } from '../types';
import { isInvokeStart, parseInvokes } from './invoke-bodies';
import type { FormatScanner, ScanContext } from './scan-context';
import { parseXmlFunctions, type BodyParse } from './xml-bodies';

interface Element {
  open: string;
  close: string;
  parse: (region: string) => BodyParse | undefined;
  strategy: ExtractionStrategy;
}

const invokes = (region: string) => (isInvokeStart(region, 0) ? parseInvokes(region, 0) : undefined);

const ELEMENTS: Element[] = [
  { open: '<function=', close: '</function>', parse: (r) => parseXmlFunctions(r, 0), strategy: 'xml_function' },
  { open: '<function name=', close: '</function>', parse: invokes, strategy: 'xml_function' },
  { open: '<invoke', close: 'invoke>', parse: invokes, strategy: 'xml_invoke' },
  { open: '<steptml:invoke', close: 'invoke>', parse: invokes, strategy: 'step3' },
  { open: '<｜DSML｜invoke', close: 'invoke>', parse: invokes, strategy: 'xml_invoke' },
  { open: '<|DSML|invoke', close: 'invoke>', parse: invokes, strategy: 'xml_invoke' },
  { open: '<｜GCML｜invoke', close: 'invoke>', parse: invokes, strategy: 'xml_invoke' }, // GigaChat 3.5
  { open: '<atem:invoke', close: 'invoke>', parse: invokes, strategy: 'xml_invoke' }, // Muse Glimmer
];

export const xmlTags: FormatScanner = {
  triggers: ELEMENTS.map((e) => e.open),
  scan: (ctx) => ELEMENTS.flatMap((e) => (ctx.markers.has(e.open) ? scanElements(ctx, e) : [])),
};

function scanElements(ctx: ScanContext, element: Element): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const nextOpen = createFinder(text, element.open);
  let at = nextOpen(0);
  while (at !== -1) {
    const claimed = ctx.claimedUntil(at);
    if (claimed !== -1) {
      at = nextOpen(claimed);
      continue;
    }
    const following = nextOpen(at + element.open.length);
    const regionEnd = following === -1 ? text.length : following;
    const region = text.slice(at, regionEnd);
    const parsed = element.parse(region);
    if (parsed && parsed.calls.length > 0) {
      const closed = region.slice(0, parsed.end).endsWith(element.close);
      if (closed || parsed.complete) {
        spans.push({ start: at, end: at + parsed.end, strategy: element.strategy, calls: parsed.calls, explicit: true, closed });
      }
    }
    at = following;
  }
  return spans;
}
