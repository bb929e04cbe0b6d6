// Checks a JSON value against a schema of the admin API's OpenAPI document (3.0: $ref, allOf, oneOf,
// anyOf, nullable, enum, type, properties, required, additionalProperties, items). An object schema
// that lists its properties and says nothing of others takes no others here: a field an answer
// carries that the document does not list is drift, and fails.
type Schema = Record<string, unknown>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

export function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target || i > 20) throw new Error(`unresolved $ref ${String(s.$ref)}`);
    s = target;
  }
  return s;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every place `value` departs from `schema` (empty: it conforms). */
export function conformance(doc: OpenApiDoc, schema: Schema, value: unknown, at = '$'): string[] {
  const s = resolve(doc, schema);
  if (value === null) return s.nullable || s.type === undefined ? [] : [`${at}: null, but not nullable`];
  if (Array.isArray(s.allOf)) {
    const problems = (s.allOf as Schema[]).flatMap((part) => conformance(doc, part, value, at));
    return problems.length ? problems : [];
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key])) {
      const branches = (s[key] as Schema[]).map((b) => conformance(doc, b, value, at));
      if (!branches.some((b) => b.length === 0))
        return [`${at}: matches no branch of ${key}: ${branches.map((b) => b.join('; ')).join(' | ')}`];
      if (s.type === undefined) return [];
    }
  }
  if (Array.isArray(s.enum) && !(s.enum as unknown[]).includes(value))
    return [`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(s.enum)}`];
  const t = typeOf(value);
  switch (s.type) {
    case undefined:
      break;
    case 'integer':
      if (!Number.isInteger(value)) return [`${at}: expected an integer, got ${JSON.stringify(value)}`];
      break;
    case 'number':
      if (t !== 'number') return [`${at}: expected a number, got ${t}`];
      break;
    case 'string':
    case 'boolean':
      if (t !== s.type) return [`${at}: expected a ${String(s.type)}, got ${t} ${JSON.stringify(value)?.slice(0, 80)}`];
      break;
    case 'array':
      if (t !== 'array') return [`${at}: expected an array, got ${t}`];
      return s.items ? (value as unknown[]).flatMap((v, i) => conformance(doc, s.items as Schema, v, `${at}[${i}]`)) : [];
    case 'object':
      if (t !== 'object') return [`${at}: expected an object, got ${t}`];
      break;
    default:
      return [`${at}: schema type ${String(s.type)} not handled`];
  }
  if (t !== 'object' || (!s.properties && s.additionalProperties === undefined)) return [];
  const obj = value as Record<string, unknown>;
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const problems: string[] = [];
  for (const r of (s.required ?? []) as string[]) if (!(r in obj)) problems.push(`${at}.${r}: required, missing`);
  for (const [k, v] of Object.entries(obj)) {
    if (props[k]) problems.push(...conformance(doc, props[k], v, `${at}.${k}`));
    else if (typeof s.additionalProperties === 'object')
      problems.push(...conformance(doc, s.additionalProperties as Schema, v, `${at}.${k}`));
    else if (s.additionalProperties !== true) problems.push(`${at}.${k}: not in the document`);
  }
  return problems;
}
