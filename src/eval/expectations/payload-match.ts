// How an expectation's `with` is matched against a recorded event payload.

const OPERATORS: Record<string, (have: unknown, arg: unknown) => boolean> = {
  $gte: (h, a) => typeof h === 'number' && typeof a === 'number' && h >= a,
  $lte: (h, a) => typeof h === 'number' && typeof a === 'number' && h <= a,
  $gt: (h, a) => typeof h === 'number' && typeof a === 'number' && h > a,
  $lt: (h, a) => typeof h === 'number' && typeof a === 'number' && h < a,
  $contains: (h, a) => (typeof h === 'string' && typeof a === 'string' && h.includes(a)) || (Array.isArray(h) && h.some((x) => payloadMatches(x, a))),
  $exists: (h, a) => (h !== undefined && h !== null) === a,
  $ne: (h, a) => !payloadMatches(h, a),
};

export const PAYLOAD_OPERATORS = Object.keys(OPERATORS);

export function isOperatorObject(want: object): boolean {
  const keys = Object.keys(want);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/**
 * Deep partial match: every key in `want` must match in `have` (arrays and scalars exactly).
 * An object of operators ({ $gte: 1000, $lte: 1500 }, { $contains: "x" }, { $exists: false }) tests the value.
 */
export function payloadMatches(have: unknown, want: unknown): boolean {
  if (want === null || typeof want !== 'object') return Object.is(have, want);
  if (!Array.isArray(want) && isOperatorObject(want)) {
    return Object.entries(want).every(([op, arg]) => {
      const fn = OPERATORS[op];
      if (!fn) throw new Error(`unknown payload operator ${op} (known: ${PAYLOAD_OPERATORS.join(', ')})`);
      return fn(have, arg);
    });
  }
  if (Array.isArray(want)) {
    return Array.isArray(have) && have.length === want.length && want.every((w, i) => payloadMatches(have[i], w));
  }
  if (have === null || typeof have !== 'object' || Array.isArray(have)) return false;
  return Object.entries(want).every(([k, w]) => payloadMatches((have as Record<string, unknown>)[k], w));
}

