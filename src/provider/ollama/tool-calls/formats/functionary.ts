// Functionary v3.2 writes each part of a reply after `>>>` and a recipient line: `>>>all\n` is
// prose, `>>>name\n{…}` a call with JSON arguments, `>>>python\n` raw code for the python tool.
// The prompt itself ends with the first `>>>`, so a reply may also begin with `all\n`,
// `python\n` or `name\n{…}` — read as Functionary only where nothing else is likely: `all\n` is
// always its prose marker, the other two count when the reply has `>>>` parts or the tool is
// declared. (Functionary v3.1's <function=name>{…}</function> and <|python_tag|> code are read
// by the XML and wrapper scanners.)
import { readJsonValue } from '../calls/json-calls';
import { skipSpace } from '../arguments/literal-parser';
import { createFinder } from '../scan/marker-finder';
import type { CallSpan } from '../types';
import type { FormatScanner, ScanContext } from './scan-context';

const PART = '>>>';
const RECIPIENT = /(\w+)\r?\n/y;
const AT_START = /^(?:all|python|\w+\r?\n\{)/;

export const functionary: FormatScanner = {
  triggers: [PART],
  applies: (text) => text.length > 3 && isWordCode(text.charCodeAt(0)) && AT_START.test(text),
  scan: scanFunctionary,
};

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function scanFunctionary(ctx: ScanContext): CallSpan[] {
  const { text } = ctx;
  const spans: CallSpan[] = [];
  const nextPart = createFinder(text, PART);
  const hasParts = nextPart(0) !== -1;
  let markerStart = 0;
  let contentStart = 0;
  let at = hasParts && text.startsWith(PART) ? 0 : -2; // -2: the reply's own first part, without >>>
  if (at === 0) contentStart = PART.length;
  for (;;) {
    const following = nextPart(contentStart);
    const partEnd = following === -1 ? text.length : following;
    const span = readPart(ctx, markerStart, contentStart, partEnd, at !== -2 || hasParts, at !== -2);
    if (span) spans.push(span);
    if (following === -1) break;
    at = following;
    markerStart = following;
    contentStart = following + PART.length;
  }
  return spans;
}

/**
 * One part: its recipient line, then prose, code or JSON arguments up to `partEnd`.
 * `confident`: the reply is Functionary's (it has >>> parts); `marked`: this part has its >>>.
 */
function readPart(
  ctx: ScanContext,
  markerStart: number,
  contentStart: number,
  partEnd: number,
  confident: boolean,
  marked: boolean,
): CallSpan | undefined {
  const { text } = ctx;
  RECIPIENT.lastIndex = contentStart;
  const m = RECIPIENT.exec(text);
  if (!m || m.index + m[0].length > partEnd) return undefined;
  const recipient = m[1];
  const bodyStart = contentStart + m[0].length;
  if (recipient === 'all') {
    // prose follows: only the part marker goes
    return { start: markerStart, end: bodyStart, strategy: null, calls: [], explicit: true, closed: true };
  }
  const i = skipSpace(text, bodyStart);
  if (recipient === 'python' && text[i] !== '{') {
    if (!marked && !(ctx.hasTools && ctx.isKnownName('python'))) return undefined;
    const code = text.slice(bodyStart, partEnd).trim();
    if (code === '') return undefined;
    return {
      start: markerStart,
      end: partEnd,
      strategy: 'functionary',
      calls: [{ name: 'python', arguments: { code } }],
      explicit: true,
      closed: true,
    };
  }
  if (!confident || text[i] !== '{') return undefined;
  const v = readJsonValue(text.slice(i, partEnd), 0);
  if (!v || typeof v.value !== 'object' || v.value === null || Array.isArray(v.value)) return undefined;
  const call = { name: recipient, arguments: v.value as Record<string, unknown> };
  return { start: markerStart, end: i + v.end, strategy: 'functionary', calls: [call], explicit: true, closed: true };
}
