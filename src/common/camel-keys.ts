// Scenario files and Ollama's wire format use snake_case; Loupe's types use camelCase. One
// conversion, typed, so a key added on one side and not the other is a compile error, not a setting
// silently ignored.
export type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<SnakeToCamel<Tail>>}` : S;

export type CamelKeys<T> = { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: T[K] };

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The object with its keys in camelCase; keys whose value is undefined are left out. */
export function camelKeys<T extends object>(o: T): CamelKeys<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[toCamel(k)] = v;
  return out as CamelKeys<T>;
}

/**
 * `value`, typed so that a key `Allowed` does not have is a compile error (a plain `satisfies`
 * lets extra keys of a non-literal through).
 */
export function keysWithin<Allowed>() {
  return <T extends object>(value: T & Record<Exclude<keyof T, keyof Allowed>, never>): T & Partial<Allowed> =>
    value as T & Partial<Allowed>;
}
