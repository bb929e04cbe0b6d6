// Text a model or a tool produced goes into Postgres whatever it holds. Postgres refuses NUL in
// text and jsonb, and a lone UTF-16 surrogate (a reply cut mid-emoji) is refused by jsonb and
// silently replaced in text. So such a value is stored readable — NUL as U+2400 "␀", a lone
// surrogate as U+FFFD — and the exact original is kept beside the row, in its `originals` column,
// as JSON (whose escapes represent both). `restoreOriginals` gives back exactly what was recorded.

// a NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one
// eslint-disable-next-line no-control-regex -- NUL is what Postgres refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- as above
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function isStorable(s: string): boolean {
  return !UNSTORABLE.test(s);
}

export function storableString(s: string): string {
  return isStorable(s) ? s : s.replace(UNSTORABLE_ALL, (c) => (c === '\u0000' ? '\u2400' : '\uFFFD'));
}

/** A JSON value with every string (keys included) made storable; the same object when nothing needed it. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableString(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const s = storableJson(v);
      if (s !== v) changed = true;
      return s;
    });
    return (changed ? out : value) as T;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = storableString(k);
    const s = storableJson(v);
    if (key !== k || s !== v) changed = true;
    out[key] = s;
  }
  return (changed ? out : value) as T;
}

// JSON.stringify writes NUL and lone surrogates as \u escapes: a cheap first test over the whole value
const ESCAPED_UNSTORABLE = /\\u0000|\\ud[89a-f]/i;

/** Whether a JSON value may hold something unstorable (false positives are fine: the walk decides). */
export function mayNeedStorable(value: unknown): boolean {
  if (typeof value === 'string') return !isStorable(value);
  if (value === null || typeof value !== 'object') return false;
  return ESCAPED_UNSTORABLE.test(JSON.stringify(value));
}

/**
 * The row with the named fields made storable, and `originals`: JSON of the exact values of the
 * fields that had to change (null when none did).
 */
export function toStorableRow<T extends object>(row: T, fields: ReadonlyArray<keyof T>): T & { originals: string | null } {
  let originals: Record<string, unknown> | undefined;
  let out: T | undefined;
  for (const field of fields) {
    const value = row[field];
    if (value === null || value === undefined || !mayNeedStorable(value)) continue;
    const stored = storableJson(value);
    if (stored === value) continue;
    (originals ??= {})[field as string] = value;
    (out ??= { ...row })[field] = stored;
  }
  return { ...(out ?? row), originals: originals ? JSON.stringify(originals) : null };
}

/**
 * The rows as one JSON text — an array of arrays, each row's values in the order of `props` — with
 * the named fields of each made storable as `toStorableRow` does. The plain text is tested first:
 * almost always nothing in it can be unstorable, and then it is the answer (a row without
 * `originals` reads as NULL there), with no walk and no copies.
 */
export function storableRowsJson(rows: ReadonlyArray<object>, props: ReadonlyArray<string>, fields: ReadonlyArray<string>): string {
  const json = JSON.stringify(rows.map((r) => positional(r as Record<string, unknown>, props)));
  if (!fields.length || !ESCAPED_UNSTORABLE.test(json)) return json;
  return JSON.stringify(rows.map((r) => positional(toStorableRow(r as Record<string, unknown>, fields), props)));
}

function positional(row: Record<string, unknown>, props: ReadonlyArray<string>): unknown[] {
  const values = new Array<unknown>(props.length);
  for (let j = 0; j < props.length; j++) values[j] = row[props[j]];
  return values;
}

/** The exact recorded values: the stored row with its `originals` put back. */
export function restoreOriginals<T extends { originals?: string | null }>(row: T): Omit<T, 'originals'> {
  const { originals, ...rest } = row;
  if (!originals) return rest;
  return { ...rest, ...(JSON.parse(originals) as Partial<T>) };
}
