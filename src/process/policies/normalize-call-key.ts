/**
 * Stable key for "the same call" (spec invariant 3): object keys sorted at every depth, strings
 * trimmed with whitespace runs collapsed, so `{ path: ' a.ts' }` and `{path:"a.ts"}` match.
 */
export function normalizeCallKey(name: string, args: Record<string, unknown>): string {
  return `${name.trim()}:${JSON.stringify(normalizeValue(args))}`;
}

function normalizeValue(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ');
  if (Array.isArray(value)) return value.map(normalizeValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = normalizeValue((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** How calls compare: normalized (corvid, Loupe) or by their exact JSON (opencode's JSON.stringify, gemini-cli's name:JSON(args)). */
export type CallKeyMode = 'normalized' | 'exact';

// The detectors key every call of the session on every step: each arguments object (never mutated
// once recorded) is serialized once per mode.
const ARG_KEYS: Record<CallKeyMode, WeakMap<object, string>> = { normalized: new WeakMap(), exact: new WeakMap() };

export function callKey(mode: CallKeyMode, name: string, args: Record<string, unknown>): string {
  const cache = ARG_KEYS[mode];
  let json = cache.get(args);
  if (json === undefined) {
    json = mode === 'exact' ? JSON.stringify(args) : JSON.stringify(normalizeValue(args));
    cache.set(args, json);
  }
  return `${mode === 'exact' ? name : name.trim()}:${json}`;
}
