// Ollama's keep_alive as Loupe configures and sends it. Ollama reads a JSON number as seconds and
// a string as a Go duration ("30m", "1h30m", "90s"); a negative value keeps the model loaded
// forever (api/types.go, Duration.UnmarshalJSON). A bare number in the environment is seconds, so
// it goes out as a number: "300" is not a Go duration and Ollama would answer 400. Pure.

export interface KeepAlive {
  /** what goes on the wire: seconds as a number, or the Go duration string as written */
  wire: number | string;
  /** how long the server keeps the model after the last request; null = forever (negative) */
  ms: number | null;
}

/** 30 minutes: covers an approval wait (5 min), a slot wait (5 min) and long tools in one run, where Ollama's own 5 min does not. */
export const DEFAULT_KEEP_ALIVE = '30m';

const GO_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** time.ParseDuration's grammar: [-+]? then one or more <decimal><unit>; "0" alone is allowed. */
export function parseGoDuration(text: string): number | undefined {
  const m = /^([-+]?)(.*)$/.exec(text)!;
  const sign = m[1] === '-' ? -1 : 1;
  const rest = m[2];
  if (rest === '0') return 0;
  if (!rest) return undefined;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < rest.length) {
    part.lastIndex = at;
    const p = part.exec(rest);
    if (!p) return undefined;
    total += Number(p[1]) * GO_UNITS_MS[p[2]];
    at = part.lastIndex;
  }
  return sign * total;
}

/** Reads a configured keep_alive; an error message (naming the accepted forms) when it is neither form. */
export function parseKeepAlive(raw: string): { ok: true; value: KeepAlive } | { ok: false; error: string } {
  const text = raw.trim();
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) {
    const seconds = Number(text);
    return { ok: true, value: { wire: seconds, ms: seconds < 0 ? null : seconds * 1000 } };
  }
  const ms = parseGoDuration(text);
  if (ms === undefined)
    return {
      ok: false,
      error: 'expected seconds (e.g. 1800) or a Go duration (e.g. "30m", "1h30m"); a negative value keeps the model loaded',
    };
  return { ok: true, value: { wire: text, ms: ms < 0 ? null : ms } };
}
