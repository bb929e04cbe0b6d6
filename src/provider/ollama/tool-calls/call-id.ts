// Call ids in Ollama's own shape ('call_' + 8 random [a-z0-9]), so text-extracted calls look like
// native ones in the transcript.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// random bytes are drawn in batches: one crypto call per id costs more than the extraction
let pool = Buffer.alloc(0);
let offset = 0;

export function createCallId(): string {
  if (offset + 8 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  let id = 'call_';
  for (let i = 0; i < 8; i++) id += ALPHABET[pool[offset++] % ALPHABET.length];
  return id;
}
