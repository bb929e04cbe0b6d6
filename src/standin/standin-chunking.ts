// Text → streamed deltas: one per token (standin-tokenizer.ts), as Ollama streams a chunk per
// sampled token. Each delta carries the whitespace before it, so the deltas join back to exactly
// the input; trailing whitespace is a token of its own.
import { tokenize } from './standin-tokenizer';

export function splitIntoDeltas(text: string): string[] {
  return tokenize(text);
}
