// Brings argument values to the types the tool's JSON schema asks for. Text formats (XML
// parameters, ReAct inputs, quoted Python values) deliver strings; a model may also quote a
// number in JSON. Coercion happens only where the schema says so and the text is unambiguous:
// "42" → 42 for an integer, "true" → true for a boolean, JSON text → object/array, 7 → "7" for a
// string. A value the schema already accepts is never touched, so `k="42"` stays "42" when the
// parameter is a string.
import type { JsonSchema } from '../../../llm-types';
import { parseLooseJson } from './literal-parser';

export interface Coercion {
  /** the argument's key; nested values use dotted paths and [i] indexes */
  key: string;
  from: string;
  to: string;
}

const MAX_DEPTH = 8;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function coerceArgsToSchema(
  args: Record<string, unknown>,
  schema: JsonSchema | undefined,
): { args: Record<string, unknown>; coercions: Coercion[] } {
  const coercions: Coercion[] = [];
  if (!schema || !schema.properties || typeof args !== 'object' || args === null) return { args, coercions };
  if (alreadyTyped(args, schema.properties)) return { args, coercions };
  const out = coerceObject(args, schema, '', coercions, 0, schema);
  return { args: out, coercions };
}

/** Whether coerceArgsToSchema would hand `args` back as they are, with no coercion (nothing allocated). */
export function needsNoCoercion(args: Record<string, unknown>, schema: JsonSchema | undefined): boolean {
  return !schema || !schema.properties || typeof args !== 'object' || args === null || alreadyTyped(args, schema.properties);
}

/** The usual case: every value already has a type its parameter admits, with nothing nested to check. */
function alreadyTyped(args: Record<string, unknown>, props: Record<string, JsonSchema>): boolean {
  for (const key in args) {
    if (!Object.prototype.hasOwnProperty.call(props, key)) continue;
    const sub = props[key];
    if (!sub || typeof sub !== 'object') continue;
    if (typeof sub.$ref === 'string') return false; // a reference: the slow path resolves it
    const value = args[key];
    if (typeof value === 'object' && value !== null) return false; // nested: the slow path descends
    const wanted = wantedTypes(sub);
    if (wanted.size > 0 && !accepts(wanted, typeOfValue(value))) return false;
  }
  return true;
}

function coerceObject(
  obj: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
  coercions: Coercion[],
  depth: number,
  root: JsonSchema,
): Record<string, unknown> {
  const props = schema.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const sub = Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
    out[key] = sub ? coerceValue(value, sub, path ? `${path}.${key}` : key, coercions, depth + 1, root) : value;
  }
  return out;
}

function coerceValue(value: unknown, given: JsonSchema, path: string, coercions: Coercion[], depth: number, root: JsonSchema): unknown {
  if (depth > MAX_DEPTH || !given || typeof given !== 'object') return value;
  const schema = deref(given, root);
  const wanted = wantedTypes(schema);
  const actual = typeOfValue(value);
  if (wanted.size === 0 || accepts(wanted, actual)) return descend(value, schema, path, coercions, depth, root);
  const converted = convert(value, actual, wanted, schema);
  if (converted === undefined) return value;
  coercions.push({ key: path, from: actual, to: converted.type });
  return descend(converted.value, schema, path, coercions, depth, root);
}

function descend(value: unknown, schema: JsonSchema, path: string, coercions: Coercion[], depth: number, root: JsonSchema): unknown {
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    const items = schema.items;
    return value.map((v, i) => coerceValue(v, items, `${path}[${i}]`, coercions, depth + 1, root));
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    return coerceObject(value as Record<string, unknown>, schema, path, coercions, depth, root);
  }
  return value;
}

/** A local `$ref` (`#/$defs/Location`, `#/definitions/…`) resolved against the tool's schema. */
function deref(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 8 && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return current;
    let target: unknown = root;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (!target || typeof target !== 'object') return current;
    current = target as JsonSchema;
  }
  return current;
}

const wantedCache = new WeakMap<JsonSchema, Set<string>>();

/** The JSON types a schema admits, from `type`, `anyOf`/`oneOf` members and `enum` values. */
function wantedTypes(schema: JsonSchema): Set<string> {
  let cached = wantedCache.get(schema);
  if (!cached) {
    cached = computeWantedTypes(schema);
    wantedCache.set(schema, cached);
  }
  return cached;
}

function computeWantedTypes(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  const add = (s: JsonSchema | undefined) => {
    if (!s || typeof s !== 'object') return;
    if (typeof s.type === 'string') out.add(canonicalType(s.type));
    else if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === 'string') out.add(canonicalType(t));
    if (Array.isArray(s.enum)) for (const v of s.enum) out.add(typeOfValue(v));
  };
  add(schema);
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) add(member);
  return out;
}

/**
 * Schemas written for Python tools name types their own way (`int`, `uint32`, `float`, `list`,
 * `dict`, `bool`, `str`); the engines map them onto JSON's types, first exactly, then by prefix.
 */
const TYPE_ALIASES: Array<[RegExp, string]> = [
  [/^(?:u?int\d*|integer|long|short)$/i, 'integer'],
  [/^(?:float\d*|double|number|decimal|num)$/i, 'number'],
  [/^(?:bool|boolean)$/i, 'boolean'],
  [/^(?:list|array|tuple|set|arr)$/i, 'array'],
  [/^(?:dict|object|map|obj)$/i, 'object'],
  [/^(?:str|string|text|varchar|char)$/i, 'string'],
];

function canonicalType(type: string): string {
  for (const [re, json] of TYPE_ALIASES) if (re.test(type)) return json;
  return type;
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function accepts(wanted: Set<string>, actual: string): boolean {
  if (wanted.has(actual)) return true;
  if (actual === 'integer' && wanted.has('number')) return true;
  return actual === 'undefined';
}

function convert(value: unknown, actual: string, wanted: Set<string>, schema: JsonSchema): { value: unknown; type: string } | undefined {
  if (actual === 'string') {
    const text = (value as string).trim();
    if (wanted.has('integer') && INTEGER.test(text)) return { value: Number(text), type: 'integer' };
    if (wanted.has('number') && NUMBER.test(text)) return { value: Number(text), type: 'number' };
    if (wanted.has('boolean') && /^(true|false)$/i.test(text)) return { value: text.toLowerCase() === 'true', type: 'boolean' };
    // 1/0 for a boolean, as the engines read it (not where a number is also admitted)
    if (wanted.has('boolean') && !wanted.has('integer') && !wanted.has('number') && (text === '1' || text === '0'))
      return { value: text === '1', type: 'boolean' };
    // the word null where the declared type cannot hold the text: the model meant no value
    if ((wanted.has('null') || !wanted.has('string')) && /^(null|none)$/i.test(text)) return { value: null, type: 'null' };
    if (wanted.has('array') || wanted.has('object')) {
      const parsed = parseLooseJson(text);
      const parsedType = typeOfValue(parsed);
      if (parsed !== undefined && wanted.has(parsedType)) return { value: parsed, type: parsedType };
      // one bare value where a list is wanted: "a.txt" → ["a.txt"]
      if (wanted.has('array') && parsed === undefined && itemAccepts(schema, 'string')) return { value: [value], type: 'array' };
    }
    return undefined;
  }
  if ((actual === 'integer' || actual === 'number' || actual === 'boolean') && wanted.has('string')) {
    return { value: String(value), type: 'string' };
  }
  if ((actual === 'object' || actual === 'array') && wanted.has('string')) {
    // a JSON document given as structure where the tool takes its text (e.g. write a .json file)
    return { value: JSON.stringify(value), type: 'string' };
  }
  if (actual !== 'array' && actual !== 'null' && wanted.has('array') && itemAccepts(schema, actual)) {
    return { value: [value], type: 'array' };
  }
  return undefined;
}

function itemAccepts(schema: JsonSchema, type: string): boolean {
  const items = schema.items;
  if (!items || typeof items !== 'object') return false;
  const wanted = wantedTypes(items);
  return wanted.has(type) || (type === 'integer' && wanted.has('number'));
}
