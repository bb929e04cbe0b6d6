// Argument values that a format writes as text, decoded the way that format means them. GLM
// writes every non-string value as JSON (`<arg_value>42</arg_value>`, `[1, 2]`, `true`), so a
// value is decoded unless the tool's schema says the parameter is a string; without a schema,
// anything that reads as JSON is JSON. Qwen3-Coder, Seed-OSS and MiniMax write a null argument as
// the word null. Everything else stays text here and is typed by the schema afterwards. A value
// the schema declares a string keeps its whitespace unless laid out on lines of its own; other
// text is trimmed before it is decoded.
import type { JsonSchema } from '../../../llm-types';
import { parseLooseJson } from './literal-parser';
import type { RawCall } from '../types';

export function decodeTextValues(
  args: Record<string, unknown>,
  mode: RawCall['textValues'],
  schema: JsonSchema | undefined,
): Record<string, unknown> {
  if (mode === undefined) return args;
  if (mode === 'null' && !hasNullWord(args)) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      out[key] = value;
    } else if (mode === 'null') {
      out[key] = value.trim().toLowerCase() === 'null' ? null : value;
    } else {
      out[key] = wantsString(schema?.properties?.[key]) ? stringValue(value) : decoded(value.trim());
    }
  }
  return out;
}

/**
 * A declared string written right against its tag is kept verbatim, indentation and final newline
 * included (Poolside's parser keeps code bodies whole); one laid out on lines of its own
 * (`<arg_value>\n  text\n</arg_value>`) is trimmed, as GLM's parser trims it.
 */
function stringValue(value: string): string {
  const first = value.charCodeAt(0);
  const text = first === 10 || first === 13 ? value.trim() : value;
  // HyperCLOVAX writes every value as JSON, strings quoted: "\"Seoul\"" is Seoul
  if (text.length >= 2 && text.charCodeAt(0) === 34 && text.charCodeAt(text.length - 1) === 34) {
    try {
      const decoded = JSON.parse(text) as unknown;
      if (typeof decoded === 'string') return decoded;
    } catch {
      // not one JSON string: the quotes are the value's own
    }
  }
  return text;
}

function hasNullWord(args: Record<string, unknown>): boolean {
  for (const key in args) {
    const v = args[key];
    if (typeof v === 'string' && v.length <= 8 && v.trim().toLowerCase() === 'null') return true;
  }
  return false;
}

function decoded(value: string): unknown {
  const parsed = parseLooseJson(value);
  return parsed === undefined ? value : parsed;
}

function wantsString(schema: JsonSchema | undefined): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string')) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(
    (s) => s && (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))),
  );
}
