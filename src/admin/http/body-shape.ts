// A JSON body's nesting depth and key count, read from its raw text in one pass before it is parsed:
// validation and transformation walk the parsed body recursively (a 100k-deep body overflowed the
// stack) and per key (50k unknown keys held the event loop for seconds), so such a body is refused
// before either runs.
import { InvalidRequestError } from '../../common/request-errors';

export interface BodyShapeLimits {
  maxDepth: number;
  maxKeys: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Why the body's shape is refused, if it is. Outside strings a `:` only ever separates a key from
 * its value, so counting them counts keys. Works on bytes (UTF-8: no multi-byte sequence holds an
 * ASCII byte) or on UTF-16 code units alike; malformed JSON is left for the parser to refuse.
 */
export function bodyShapeProblem(text: { length: number; [i: number]: number }, limits: BodyShapeLimits): string | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COLON && ++keys > limits.maxKeys) return `has more than ${limits.maxKeys} keys`;
  }
  return undefined;
}

/** The UTF-16 code units of a body in another charset, indexable like the bytes of a UTF-8 one. */
function codeUnits(buf: Buffer, charset: string): Uint16Array {
  const text = new TextDecoder(charset).decode(buf);
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

/** body-parser's `verify`: throws the 400 for a body too deep or with too many keys. */
export function bodyShapeVerifier(limits: BodyShapeLimits) {
  return (_req: unknown, _res: unknown, buf: Buffer, encoding: string | null): void => {
    const charset = (encoding ?? 'utf-8').toLowerCase();
    let units: { length: number; [i: number]: number };
    if (charset === 'utf-8' || charset === 'utf8') units = buf;
    else {
      try {
        units = codeUnits(buf, charset);
      } catch {
        // body-parser's own 415 (through the error mapping): a charset this check cannot read
        throw Object.assign(new Error(`unsupported charset ${charset}`), { type: 'charset.unsupported' });
      }
    }
    const problem = bodyShapeProblem(units, limits);
    if (problem) throw new InvalidRequestError([{ field: 'body', message: problem }], `request body ${problem}`);
  };
}
