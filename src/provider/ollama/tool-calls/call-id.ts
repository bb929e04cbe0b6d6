// Call ids in Ollama's own shape ('call_' + 8 random [a-z0-9]), so text-extracted calls look like
// native ones in the transcript.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// random characters are drawn in batches: one crypto call per id costs more than the extraction
let pool = '';
let offset = 0;

export function createCallId(): string {
  if (offset + 8 > pool.length) {
    const bytes = randomBytes(4096);
    let chars = '';
    for (const b of bytes) chars += ALPHABET[b % ALPHABET.length];
    pool = chars;
    offset = 0;
  }
  const id = 'call_' + pool.slice(offset, offset + 8);
  offset += 8;
  return id;
}
