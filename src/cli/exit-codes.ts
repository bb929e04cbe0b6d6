export const EXIT = {
  OK: 0,
  FAILED: 1,
  BAD_INPUT: 2,
} as const;
