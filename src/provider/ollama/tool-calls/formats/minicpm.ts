// MiniCPM 5 writes XML elements with short `param` children:
//   <function name="get_weather"><param name="city">上海</param></function>
// and, when its tokenizer's space marker leaks, `<function\u0120name=…>` or the collapsed
// `<functionname="…">` / `<paramname="…">`. A value may be wrapped in CDATA. Non-string values
// are JSON (typed by the schema like GLM's); a parameter without a name, or named twice, is what
// the reference parser rejects, and is read only by repair.
import { createFinder, type MarkerFinder } from '../scan/marker-finder';
import type { CallSpan, RawCall } from '../types';
import { isSpaceCode } from '../scan/whitespace';
import type { FormatScanner, ScanContext } from './scan-context';

const OPENERS = ['<function name=', '<function\u0120name=', '<functionname='];
const CLOSE = '</function>';
const HEAD = /^<function(?:\s|\u0120)?name\s*=\s*"([^"]*)"\s*>/;
const PARAM = /<param(?:(?:\s|\u0120)?name\s*=\s*"([^"]*)")?\s*>/y;
const CDATA = /^<!\[CDATA\[([\s\S]*)\]\]>$/;

export const minicpm: FormatScanner = { triggers: OPENERS, scan: scanMinicpm };

function scanMinicpm(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  for (const opener of OPENERS) {
    if (!ctx.markers.has(opener)) continue;
    const next = createFinder(text, opener);
    const nextParamClose = createFinder(text, '</param>');
    for (let at = next(0); at !== -1; at = next(at + opener.length)) {
      const read = readFunction(text, at, nextParamClose);
      if (read) spans.push({ start: at, end: read.end, strategy: 'xml_function', calls: [read.call], explicit: true, closed: read.closed });
    }
  }
  return spans;
}

function readFunction(text: string, at: number, nextParamClose: MarkerFinder): { call: RawCall; end: number; closed: boolean } | undefined {
  const head = HEAD.exec(text.slice(at, at + 300));
  if (!head) return undefined;
  let i = at + head[0].length;
  const args: Record<string, unknown> = {};
  let irregular: string | undefined;
  let sawParam = false;
  for (;;) {
    while (i < text.length && isSpaceCode(text.charCodeAt(i))) i++;
    if (text.startsWith(CLOSE, i)) {
      return { call: { name: head[1], arguments: args, textValues: 'decode', irregular }, end: i + CLOSE.length, closed: true };
    }
    PARAM.lastIndex = i;
    const p = PARAM.exec(text);
    if (!p) {
      // sawParam false and no close: not this format's element (a Hermes <function name=…>{json}, say)
      if (!sawParam) return undefined;
      return {
        call: { name: head[1], arguments: args, textValues: 'decode', irregular: `${CLOSE} missing: the call was cut off` },
        end: i,
        closed: false,
      };
    }
    const valueStart = i + p[0].length;
    const valueEnd = nextParamClose(valueStart);
    if (valueEnd === -1) {
      return {
        call: { name: head[1], arguments: args, textValues: 'decode', irregular: '</param> missing: the call was cut off' },
        end: text.length,
        closed: false,
      };
    }
    const raw = text.slice(valueStart, valueEnd);
    const value = CDATA.exec(raw)?.[1] ?? raw;
    const key = p[1];
    if (key === undefined) irregular ??= 'a parameter without a name';
    else if (key in args) irregular ??= `parameter ${key} written twice`;
    else args[key] = value;
    sawParam = true;
    i = valueEnd + '</param>'.length;
  }
}
