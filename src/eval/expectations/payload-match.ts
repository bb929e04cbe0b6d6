// How an expectation's `with` is matched against a recorded event payload. An operator's argument
// may be a reference instead of a literal: `{ $ref: field }` — a field of the same payload — or
// `{ $ref: { event, with, occurrence, field } }` — a field of another event of the session — so
// "kept no more than its cap" and "smaller than the first cap" can be said.

import { regexTest } from './regex-budget';

export type RefResolver = (ref: unknown, root: Record<string, unknown>) => unknown;

const OPERATORS: Record<string, (have: unknown, arg: unknown) => boolean> = {
  $gte: (h, a) => typeof h === 'number' && typeof a === 'number' && h >= a,
  $lte: (h, a) => typeof h === 'number' && typeof a === 'number' && h <= a,
  $gt: (h, a) => typeof h === 'number' && typeof a === 'number' && h > a,
  $lt: (h, a) => typeof h === 'number' && typeof a === 'number' && h < a,
  $contains: (h, a) =>
    (typeof h === 'string' && typeof a === 'string' && h.includes(a)) || (Array.isArray(h) && h.some((x) => payloadMatches(x, a))),
  // time-limited: a pattern that overruns throws a RegexBudgetError, which fails the check that asked
  $regex: (h, a) => typeof h === 'string' && typeof a === 'string' && regexTest(a, h),
  $exists: (h, a) => (h !== undefined && h !== null) === a,
  $ne: (h, a) => !payloadMatches(h, a),
  $eq: (h, a) => payloadMatches(h, a),
};

export const PAYLOAD_OPERATORS = Object.keys(OPERATORS);

export function isOperatorObject(want: object): boolean {
  const keys = Object.keys(want);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

export function isRef(value: unknown): value is { $ref: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && '$ref' in value;
}

/** A field of the payload itself: `{ $ref: "maxChars" }` (a dotted path reaches nested fields). */
export function fieldAt(root: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), root);
}

const sameEventRefs: RefResolver = (ref, root) => (typeof ref === 'string' ? fieldAt(root, ref) : undefined);

/**
 * Deep partial match: every key in `want` must match in `have` (arrays and scalars exactly).
 * An object of operators ({ $gte: 1000, $lte: 1500 }, { $contains: "x" }, { $exists: false }) tests the value.
 */
export function payloadMatches(have: unknown, want: unknown, resolve: RefResolver = sameEventRefs, root: unknown = have): boolean {
  if (want === null || typeof want !== 'object') return Object.is(have, want);
  if (isRef(want)) return payloadMatches(have, resolve(want.$ref, root as Record<string, unknown>), resolve, root);
  if (!Array.isArray(want) && isOperatorObject(want)) {
    return Object.entries(want).every(([op, arg]) => {
      const fn = OPERATORS[op];
      if (!fn) throw new Error(`unknown payload operator ${op} (known: ${PAYLOAD_OPERATORS.join(', ')})`);
      return fn(have, isRef(arg) ? resolve(arg.$ref, root as Record<string, unknown>) : arg);
    });
  }
  if (Array.isArray(want)) {
    return Array.isArray(have) && have.length === want.length && want.every((w, i) => payloadMatches(have[i], w, resolve, root));
  }
  if (have === null || typeof have !== 'object' || Array.isArray(have)) return false;
  return Object.entries(want).every(([k, w]) => payloadMatches((have as Record<string, unknown>)[k], w, resolve, root));
}
