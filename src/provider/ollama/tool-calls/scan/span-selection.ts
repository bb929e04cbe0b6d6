// Choosing among the regions scanners claimed, and tidying their edges: overlapping claims are
// settled (earliest, then longest, wins; a higher tier is never displaced by a lower one), a fence
// that holds nothing but calls goes with them, and a stray `]`/`}` a model adds after a call is
// dropped rather than left dangling in the text.
import type { CallSpan } from '../types';

/** Non-overlapping spans, earliest first; at equal starts the longer one. */
export function selectSpans(spans: readonly CallSpan[]): CallSpan[] {
  if (alreadySelected(spans)) return spans as CallSpan[]; // the usual case: one scanner, spans in order
  const sorted = isSorted(spans) ? spans : [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: CallSpan[] = [];
  let lastEnd = -1;
  for (const s of sorted) {
    if (s.end <= s.start && s.calls.length === 0) continue;
    if (s.start >= lastEnd) {
      out.push(s);
      lastEnd = s.end;
    }
  }
  return out;
}

/** Whether `spans` is what selectSpans would return anyway: in order, disjoint, none empty. */
function alreadySelected(spans: readonly CallSpan[]): boolean {
  let lastEnd = -1;
  for (const s of spans) {
    if (s.start < lastEnd || s.end <= s.start) return false;
    lastEnd = s.end;
  }
  return true;
}

function isSorted(spans: readonly CallSpan[]): boolean {
  for (let k = 1; k < spans.length; k++) {
    const a = spans[k - 1];
    const b = spans[k];
    if (a.start > b.start || (a.start === b.start && a.end < b.end)) return false;
  }
  return true;
}

/** `base` plus the spans of `extra` that overlap none of `base` (both sorted, non-overlapping). */
export function addNonOverlapping(base: readonly CallSpan[], extra: readonly CallSpan[]): CallSpan[] {
  if (extra.length === 0) return base as CallSpan[];
  if (base.length === 0) return extra as CallSpan[];
  const out: CallSpan[] = [];
  let b = 0;
  for (const s of extra) {
    while (b < base.length && base[b].end <= s.start) out.push(base[b++]);
    if (b < base.length && base[b].start < s.end) continue;
    out.push(s);
  }
  while (b < base.length) out.push(base[b++]);
  return out;
}

/** The spans of `spans` that overlap none of `blockers` (both sorted, each non-overlapping). */
export function withoutOverlap(spans: readonly CallSpan[], blockers: readonly CallSpan[]): CallSpan[] {
  const merged = addNonOverlapping(blockers, spans);
  const blocked = new Set(blockers);
  return merged.filter((s) => !blocked.has(s));
}

const FENCE_OPEN = /^[ \t]*```[\w+-]*[ \t]*$/;
const LOOK_LIMIT = 200;

/** Grows call spans over a ``` fence around them and over stray closing brackets after them (in place). */
export function tidySpans(text: string, spans: CallSpan[]): CallSpan[] {
  const out = spans;
  const fences = text.includes('```');
  for (let g = 0; fences && g < out.length; g++) {
    if (out[g].calls.length === 0) continue;
    // a group: call spans separated only by whitespace or commas
    let last = g;
    const joins = (k: number) => out[k + 1].calls.length > 0 && /^[\s,]*$/.test(text.slice(out[k].end, out[k + 1].start));
    while (last + 1 < out.length && joins(last)) last++;
    absorbFence(text, out, g, last);
    g = last;
  }
  for (let k = 0; k < out.length; k++) {
    if (out[k].calls.length === 0) continue;
    const limit = k + 1 < out.length ? out[k + 1].start : text.length;
    let j = out[k].end;
    while (j < limit && (text[j] === ' ' || text[j] === '\t')) j++;
    const closersFrom = j;
    while (j < limit && j - closersFrom < 4 && (text[j] === ']' || text[j] === '}')) j++;
    if (j > closersFrom && (j === text.length || /\s/.test(text[j]))) out[k].end = j;
  }
  return out;
}

function absorbFence(text: string, spans: CallSpan[], first: number, last: number): void {
  const lowerBound = first > 0 ? spans[first - 1].end : 0;
  const upperBound = last + 1 < spans.length ? spans[last + 1].start : text.length;
  let i = spans[first].start;
  while (i > lowerBound && spans[first].start - i < LOOK_LIMIT && /\s/.test(text[i - 1])) i--;
  let lineStart = i;
  while (lineStart > lowerBound && i - lineStart <= LOOK_LIMIT && text[lineStart - 1] !== '\n') lineStart--;
  if (lineStart > 0 && text[lineStart - 1] !== '\n') return;
  if (!FENCE_OPEN.test(text.slice(lineStart, i))) return;
  let j = spans[last].end;
  while (j < upperBound && j - spans[last].end < LOOK_LIMIT && /\s/.test(text[j])) j++;
  if (!text.startsWith('```', j) || j + 3 > upperBound) return;
  if (j + 3 < text.length && !/\s/.test(text[j + 3])) return;
  spans[first].start = lineStart + text.slice(lineStart, i).indexOf('`');
  spans[last].end = j + 3;
  for (let k = first; k <= last; k++) if (spans[k].strategy === 'json') spans[k].strategy = 'fenced_json';
}
