// Call elements that carry the tool name in an attribute:
//   MiniMax-M2 / Claude-style  <invoke name="x"><parameter name="k">v</parameter></invoke>
//   Step-3                     <steptml:invoke name="x"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke>
//   GigaChat 3.5               the same with ｜GCML｜
//   Muse Glimmer (ATEM)        <atem:invoke name="x"><atem:parameter name="k">v</atem:parameter></atem:invoke>
//   DeepSeek V3.2 / V4         <｜DSML｜invoke name="x"><｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter></｜DSML｜invoke>
//   Hermes-style               <function name="x">{"k": "v"}</function>
// The body is parameter elements or one JSON object. These formats do not write values
// verbatim (the servers strip them), so surrounding whitespace goes; DSML's string="false" marks
// a JSON value. Each element stands alone: a broken one is skipped and its siblings still count.
import { readJsonValue } from '../calls/json-calls';
import { parseLooseJson, skipSpace } from '../arguments/literal-parser';
import { createFinder, type MarkerFinder } from '../scan/marker-finder';
import type { RawCall } from '../types';
import type { BodyParse } from './xml-bodies';

const OPEN = /<(steptml:|｜DSML｜|\|DSML\||｜GCML｜|atem:)?(invoke|function)(\s[^<>]*)?>/y;
const PARAM_OPEN = /<(?:steptml:|｜DSML｜|\|DSML\||｜GCML｜|atem:)?parameter(\s[^<>]*)?>/y;
const PREFIXES = ['', 'steptml:', '｜DSML｜', '|DSML|', '｜GCML｜', 'atem:'];
/** the start of an element this module reads */
export const INVOKE_START = /<(?:steptml:|｜DSML｜|\|DSML\||｜GCML｜|atem:)?(?:invoke[\s>]|function\s+name\s*=)/y;

/** The closing tags of an element, whichever namespace prefix the model closed it with. */
class Closers {
  private readonly finders = new Map<string, MarkerFinder>();
  constructor(private readonly text: string) {}
  next(tag: string, from: number, limit: number): { at: number; end: number } | undefined {
    let find = this.finders.get(tag);
    if (!find) {
      find = createFinder(this.text, `${tag}>`);
      this.finders.set(tag, find);
    }
    // find `tag>` and look back for `</` and a prefix before it
    for (let hit = find(from); hit !== -1 && hit < limit; hit = find(hit + 1)) {
      for (const prefix of PREFIXES) {
        const at = hit - 2 - prefix.length;
        if (at >= from && this.text.startsWith(prefix, hit - prefix.length) && this.text.startsWith('</', at)) {
          return { at, end: hit + tag.length + 1 };
        }
      }
    }
    return undefined;
  }
}

const NAME_ATTRIBUTE = /(?:^|\s)name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const STRING_ATTRIBUTE = /(?:^|\s)string\s*=\s*["']?(true|false)/i;

/** The value of the element's name attribute, if it has one. */
function nameAttribute(source: string | undefined): string | undefined {
  const m = source ? NAME_ATTRIBUTE.exec(source) : null;
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** Whether `text` holds an element this module reads at `pos`. */
export function isInvokeStart(text: string, pos: number): boolean {
  INVOKE_START.lastIndex = pos;
  return INVOKE_START.test(text);
}

/** Consecutive call elements from `pos` (whitespace between them allowed). */
export function parseInvokes(body: string, pos: number): BodyParse | undefined {
  const closers = new Closers(body);
  const calls: RawCall[] = [];
  let i = skipSpace(body, pos);
  let end = pos;
  let complete = true;
  for (;;) {
    OPEN.lastIndex = i;
    const open = OPEN.exec(body);
    if (!open) break;
    const tag = open[2];
    const name = nameAttribute(open[3])?.trim();
    const close = closers.next(tag, i + open[0].length, body.length);
    if (!name) {
      // not a call element (a bare <function>, an invoke without a name): skip it if it is closed
      if (!close) break;
      i = end = skipSpace(body, close.end);
      continue;
    }
    const limit = close ? close.at : body.length;
    const inner = parseInner(body, i + open[0].length, limit, closers, open[1] ?? '');
    if (inner) {
      // unprefixed (MiniMax) writes null as a word; ATEM (Muse Glimmer) writes every non-string value as JSON
      const textValues = !open[1] ? ('null' as const) : open[1] === 'atem:' ? ('decode' as const) : undefined;
      calls.push({ name, arguments: inner.args, ...(textValues ? { textValues } : {}) });
      complete = close !== undefined && inner.complete;
    }
    if (!close) {
      end = inner ? inner.end : end;
      complete = false;
      break;
    }
    end = close.end;
    i = skipSpace(body, end);
  }
  return calls.length ? { calls, end, complete } : undefined;
}

function parseInner(
  body: string,
  start: number,
  limit: number,
  closers: Closers,
  prefix: string,
): { args: Record<string, unknown>; end: number; complete: boolean } | undefined {
  let j = skipSpace(body, start);
  if (body[j] === '{') {
    const v = readJsonValue(body.slice(j, limit), 0);
    if (!v || typeof v.value !== 'object' || v.value === null || Array.isArray(v.value)) return undefined;
    if (skipSpace(body, j + v.end) < limit) return undefined;
    return { args: v.value as Record<string, unknown>, end: j + v.end, complete: true };
  }
  const args: Record<string, unknown> = {};
  let complete = true;
  while (j < limit) {
    PARAM_OPEN.lastIndex = j;
    const param = PARAM_OPEN.exec(body);
    if (!param) break;
    const key = nameAttribute(param[1]);
    const valueStart = j + param[0].length;
    const close = closers.next('parameter', valueStart, limit);
    if (!close) {
      complete = false;
      j = limit;
      break;
    }
    if (key === undefined) return undefined; // a parameter without a name: the element is broken
    args[key.trim()] = readValue(body.slice(valueStart, close.at), param[1], prefix);
    j = skipSpace(body, close.end);
  }
  // anything but parameters before the closing tag means the element is not what it claims
  if (j < limit && body.slice(j, limit).trim() !== '') return undefined;
  return { args, end: j, complete };
}

function readValue(raw: string, attributeText: string | undefined, prefix: string): unknown {
  const value = raw.trim();
  // DSML says per parameter whether the value is a string; anything else is JSON
  if (
    (prefix.includes('DSML') || prefix.includes('GCML')) &&
    attributeText &&
    STRING_ATTRIBUTE.exec(attributeText)?.[1].toLowerCase() === 'false'
  ) {
    const parsed = parseLooseJson(value);
    return parsed === undefined ? value : parsed;
  }
  return value;
}
