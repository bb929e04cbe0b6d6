// What Go's encoding/json and time.Time put on the wire: HTML-safe escapes, sorted map keys,
// RFC 3339 timestamps with trimmed nanoseconds. Clients that compare bytes see Ollama's bytes.

/** json.Marshal-style text: <, >, & and U+2028/2029 escaped as \u003c etc. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Go marshals map[string]any with keys sorted; apply to values that are Go maps. */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeysDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    }
    return out as T;
  }
  return value;
}

// A nanosecond wall clock: Date.now() at start plus the monotonic hrtime since.
const wallAtStartNs = BigInt(Date.now()) * 1_000_000n;
const hrAtStart = process.hrtime.bigint();

export function nowNs(): bigint {
  return wallAtStartNs + (process.hrtime.bigint() - hrAtStart);
}

/** Monotonic milliseconds (fractional) for durations and the request log. */
export function nowMs(): number {
  return Number(nowNs()) / 1e6;
}

/**
 * time.Time as Go marshals it (RFC3339Nano): "2025-10-26T17:15:24.097767Z". `local` uses the
 * process time zone's offset ("-07:00"); a zero offset prints "Z", as Go does.
 */
export function formatGoTime(ns: bigint, local = false): string {
  const ms = Number(ns / 1_000_000n);
  const offsetMin = local ? -new Date(ms).getTimezoneOffset() : 0;
  const shifted = new Date(ms + offsetMin * 60_000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const date = `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  const time = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
  const frac = (((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  let zone = 'Z';
  if (offsetMin !== 0) {
    const abs = Math.abs(offsetMin);
    zone = `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
  return `${date}T${time}${frac ? `.${frac}` : ''}${zone}`;
}

export function goTimeFromMs(ms: number, local = false): string {
  return formatGoTime(BigInt(Math.round(ms * 1e6)), local);
}
