// The stand-in's one tokenizer: a deterministic stand-in for a BPE vocabulary, used for the
// streamed chunks (one per token, as Ollama sends), eval_count, tokensPerSecond pacing and the
// prompt count alike, so the figures a reply reports agree with the chunks it streamed.
//
// Rules (close enough to llama3/qwen2 BPE on English text and JSON to make budgets realistic):
// - whitespace rides on the token after it (BPE's " word"); trailing whitespace is one token;
// - a run of letters up to WORD_MAX_CHARS long is one token, a longer one a token per
//   LONG_WORD_CHARS characters (common words are single tokens, long rare ones split);
// - digits group by up to three (llama3's number pre-tokenizer);
// - other characters (punctuation, JSON's {}[]":,) merge in pairs, as BPE merges `{"` and `":`;
// - CJK ideographs and kana are a token each.

/** letter runs up to this length are one token */
export const WORD_MAX_CHARS = 8;
/** longer letter runs: one token per this many characters */
export const LONG_WORD_CHARS = 5;
/** digit runs: one token per this many digits */
export const DIGIT_GROUP = 3;
/** punctuation runs: one token per this many characters */
export const PUNCT_GROUP = 2;

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const TOKEN = new RegExp(`\\s*(?:[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{M}])+|\\p{N}+|[^\\s\\p{L}\\p{M}\\p{N}]+)|\\s+`, 'gu');

function splitRun(lead: string, run: string, size: number): string[] {
  const chars = Array.from(run);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  out[0] = lead + out[0];
  return out;
}

/** The text as tokens; they join back to exactly the input. */
export function tokenize(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const piece = match[0];
    const body = piece.trimStart();
    const lead = piece.slice(0, piece.length - body.length);
    const length = Array.from(body).length;
    if (/^\p{N}/u.test(body) && length > DIGIT_GROUP) out.push(...splitRun(lead, body, DIGIT_GROUP));
    else if (/^[\p{L}\p{M}]/u.test(body)) out.push(...(length > WORD_MAX_CHARS ? splitRun(lead, body, LONG_WORD_CHARS) : [piece]));
    else if (length > PUNCT_GROUP) out.push(...splitRun(lead, body, PUNCT_GROUP));
    else out.push(piece);
  }
  return out;
}

function runTokens(body: string): number {
  const length = Array.from(body).length;
  if (/^\p{N}/u.test(body)) return Math.ceil(length / DIGIT_GROUP);
  if (/^[\p{L}\p{M}]/u.test(body)) return length > WORD_MAX_CHARS ? Math.ceil(length / LONG_WORD_CHARS) : 1;
  return Math.ceil(length / PUNCT_GROUP);
}

/** How many tokens `tokenize` would give, without building them. */
export function countTokens(text: string | undefined): number {
  if (!text) return 0;
  let n = 0;
  for (const match of text.matchAll(TOKEN)) {
    const body = match[0].trimStart();
    if (body === '') {
      n += 1;
      continue;
    }
    n += runTokens(body);
  }
  return n;
}
