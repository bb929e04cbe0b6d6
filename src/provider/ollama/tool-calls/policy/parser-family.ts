// The reference parser a model is read by, where knowing it changes the reading. Most families
// have markers of their own, so the scanner that reads a call already says which parser applies.
// A few do not: openPangu writes LFM2's <|tool_call_start|> tokens but its parser reads only a
// whole JSON list between them, and RWKV's parser reads a bare ```json fence as a call (when no
// **Tool Call:** label is written), which no other family does. An engine is told the parser to
// use (vLLM's `--tool-call-parser`); extraction is told the family, or infers it from the model's
// name. Strict then reads as that parser does, and lenient records as a repair what it would reject.

export const PARSER_FAMILIES = ['openpangu', 'rwkv'] as const;

export type ParserFamily = (typeof PARSER_FAMILIES)[number];

/** each family as its makers write it, for the reasons extraction gives */
export const PARSER_FAMILY_NAMES: Readonly<Record<ParserFamily, string>> = { openpangu: 'openPangu', rwkv: 'RWKV' };

// the model lines that write each family (Ollama and Hugging Face names alike)
const MODEL_PATTERNS: ReadonlyArray<readonly [ParserFamily, RegExp]> = [
  ['openpangu', /pangu/i],
  ['rwkv', /rwkv/i],
];

export function isParserFamily(value: unknown): value is ParserFamily {
  return typeof value === 'string' && (PARSER_FAMILIES as readonly string[]).includes(value);
}

/** The family whose reference parser reads this model's calls, when it is one that matters. */
export function parserFamilyOf(model: string | undefined): ParserFamily | undefined {
  if (!model) return undefined;
  for (const [family, pattern] of MODEL_PATTERNS) if (pattern.test(model)) return family;
  return undefined;
}
