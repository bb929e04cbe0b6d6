// Call ids in Ollama's own shape ('call_' + 8 random [a-z0-9]), so text-extracted calls look like
// native ones in the transcript.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// random characters are drawn in batches: one crypto call per id costs more than the extraction
let pool = '';
let offset = 0;

export function createCallId(): string {
  if (offset + 8 > pool.length) {
    // mapped in place and decoded once: a flat string, so each id is a cheap slice of it
    const bytes = randomBytes(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = ALPHABET.charCodeAt(bytes[i] % ALPHABET.length);
    pool = bytes.toString('latin1');
    offset = 0;
  }
  const id = 'call_' + pool.slice(offset, offset + 8);
  offset += 8;
  return id;
}
