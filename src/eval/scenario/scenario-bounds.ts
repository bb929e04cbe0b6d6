// The numbers an expectation compares with recorded ones, bounded at load (the bounds a session's
// spec shares with the API — durations, sizes, workspace files — are in session-spec/spec-bounds.ts).
import { z } from 'zod';

/**
 * A number an expectation compares with a recorded one (a count, a request number, a transcript
 * position): a whole number from `min` to `max`. Any other number is well formed but equals no
 * record's, so the expectation can never hold: a false expectation, failing when judged, not bad input.
 */
export const recordedNumber = (what: string, min: number, max = 1_000_000_000) =>
  z
    .number()
    .superRefine((n, ctx) => {
      if (Number.isInteger(n) && n >= min && n <= max) return;
      const why = !Number.isInteger(n)
        ? 'is always a whole number'
        : n < min
          ? min === 0
            ? 'is never negative'
            : `is never below ${min}`
          : `is never above ${max}`;
      ctx.addIssue({ code: 'custom', message: `${n}: ${what} ${why}` });
    })
    .meta({ type: 'integer', minimum: min, maximum: max }); // what editors are told

const countValue = recordedNumber('a count', 0);

/** An expected count: exactly n, or a range (one with min above max holds for no count). */
export const count = z.union(
  [
    countValue,
    z.strictObject({ min: countValue.optional(), max: countValue.optional() }).superRefine((c, ctx) => {
      if (c.min !== undefined && c.max !== undefined && c.min > c.max)
        ctx.addIssue({ code: 'custom', message: `min ${c.min} is above max ${c.max}: no count is in that range` });
    }),
  ],
  { error: 'expected a count (a whole number) or a range ({ min, max })' },
);
