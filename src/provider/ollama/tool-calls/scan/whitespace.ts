// What the regex class \s matches, as a char-code test: scanners that step over whitespace one
// character at a time test codes instead of making a one-character string per step.

/** Whether `c` (a UTF-16 code unit) is matched by /\s/. */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
