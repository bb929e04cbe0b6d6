// gemini-cli's content loop ("chanting") detector, per loop-control-prior-art.md §2: the model's text
// is scanned in 50-char windows sliding one char at a time; a window seen CONTENT_LOOP_THRESHOLD
// times, on average at most 250 chars apart and with at most 5 distinct gaps between the
// occurrences, is a loop. Code blocks are ignored, and tables, list items, headings, blockquotes and
// dividers restart the count, so structured text that repeats a prefix is not mistaken for a loop.
export const CONTENT_CHUNK_SIZE = 50;
export const CONTENT_LOOP_THRESHOLD = 10;
/** CONTENT_CHUNK_SIZE × 5 */
export const MAX_AVERAGE_DISTANCE = 250;
export const MAX_DISTINCT_PERIODS = 5;

export interface ContentLoopBreak {
  kind: 'content_loop_break';
  /** the repeated window */
  chunk: string;
  occurrences: number;
  averageDistance: number;
}

const STRUCTURE = /^\s*(\||[-*+]\s|\d+[.)]\s|#{1,6}\s|>|(?:[-*_]\s*){3,}$)/;
const FENCE = /^\s*(```|~~~)/;

/** Null when the text does not loop (or the detector is off: threshold 0). */
export function detectContentLoop(text: string, threshold = CONTENT_LOOP_THRESHOLD): ContentLoopBreak | null {
  if (threshold <= 0 || text.length < CONTENT_CHUNK_SIZE) return null;
  for (const segment of plainSegments(text)) {
    const found = scan(segment, threshold);
    if (found) return found;
  }
  return null;
}

/** Runs of plain prose: code blocks dropped, structural lines ending a run. */
function plainSegments(text: string): string[] {
  const segments: string[] = [];
  let current: string[] = [];
  let inCode = false;
  const flush = () => {
    if (current.length) segments.push(current.join('\n'));
    current = [];
  };
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) {
      inCode = !inCode;
      flush();
      continue;
    }
    if (inCode) continue;
    if (STRUCTURE.test(line)) {
      flush();
      continue;
    }
    current.push(line);
  }
  flush();
  return segments;
}

function scan(text: string, threshold: number): ContentLoopBreak | null {
  const seen = new Map<string, number[]>();
  for (let i = 0; i + CONTENT_CHUNK_SIZE <= text.length; i++) {
    const chunk = text.slice(i, i + CONTENT_CHUNK_SIZE);
    const at = seen.get(chunk);
    if (!at) {
      seen.set(chunk, [i]);
      continue;
    }
    at.push(i);
    if (at.length < threshold) continue;
    const recent = at.slice(-threshold);
    const gaps = recent.slice(1).map((p, k) => p - recent[k]);
    const averageDistance = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    if (averageDistance <= MAX_AVERAGE_DISTANCE && new Set(gaps).size <= MAX_DISTINCT_PERIODS) {
      return { kind: 'content_loop_break', chunk, occurrences: at.length, averageDistance: Math.round(averageDistance) };
    }
  }
  return null;
}
