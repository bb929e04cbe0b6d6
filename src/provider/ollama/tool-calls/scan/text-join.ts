// Rebuilds prose around removed regions. Whitespace at a seam is folded to the strongest break
// that was there (blank line > line break > space); where there was none, a space is put back only
// between two words of a spaced script, so "see<call>below" does not become "seebelow" while
// "好的<call>完成" stays unspaced.

const NO_SPACE_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDISH = /[\p{L}\p{N}]/u;
const SENTENCE_END = /[.!?,;:)\]}"']/;

function isSpacedWordChar(ch: string): boolean {
  return WORDISH.test(ch) && !NO_SPACE_SCRIPTS.test(ch);
}

/** 0 none, 1 space, 2 line break, 3 blank line */
function breakStrength(ws: string): number {
  if (ws === '') return 0;
  const first = ws.indexOf('\n');
  if (first === -1) return 1;
  return /\n[ \t\r]*\n/.test(ws) ? 3 : 2;
}

function seam(strength: number, left: string, right: string): string {
  if (strength === 3) return '\n\n';
  if (strength === 2) return '\n';
  if (strength === 1) return ' ';
  return isSpacedWordChar(right) && (isSpacedWordChar(left) || SENTENCE_END.test(left)) ? ' ' : '';
}

/** Joins the pieces left between removed regions; inner whitespace of a piece is kept; trimmed. */
export function joinPieces(pieces: readonly string[]): string {
  const parts: string[] = [];
  let pending = 0;
  let lastChar = '';
  for (const piece of pieces) {
    if (piece === '') continue;
    const core = piece.trim();
    if (core === '') {
      pending = Math.max(pending, breakStrength(piece));
      continue;
    }
    const lead = piece.slice(0, piece.length - piece.trimStart().length);
    if (lastChar !== '') parts.push(seam(Math.max(pending, breakStrength(lead)), lastChar, core[0]));
    parts.push(core);
    lastChar = core[core.length - 1];
    pending = breakStrength(piece.slice(piece.trimEnd().length));
  }
  return parts.join('');
}

export interface RemovedRegion {
  start: number;
  end: number;
  keep?: string;
}

/** `text` without the given sorted, non-overlapping regions (each replaced by its `keep`, if any). */
export function removeRegions(text: string, regions: readonly RemovedRegion[]): string {
  if (regions.length === 0) return text.trim();
  const pieces: string[] = [];
  let cursor = 0;
  for (const r of regions) {
    pieces.push(text.slice(cursor, r.start));
    if (r.keep) pieces.push(r.keep);
    cursor = r.end;
  }
  pieces.push(text.slice(cursor));
  return joinPieces(pieces);
}
