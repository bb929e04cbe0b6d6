// What read_file gives the model for a file's bytes. Text (valid UTF-8) comes back exactly; a
// binary file (a NUL in its first 8 KB, as git and grep decide) comes back as a short description
// rather than bytes no model can use; text with a few invalid bytes says so and shows them as U+FFFD.
import { createHash } from 'node:crypto';

const BINARY_PROBE_BYTES = 8_000;

export function decodeFileText(name: string, bytes: Buffer, totalSize: number): string {
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
    const hex = bytes.subarray(0, 32).toString('hex').replace(/(..)/g, '$1 ').trim();
    const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    return `[${name} is a binary file (${totalSize} bytes, sha256 ${sha}…); its content is not shown as text. First bytes: ${hex}]`;
  }
  // a file cut at the read limit may end mid-character: that is not an invalid byte
  const truncated = totalSize > bytes.length;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated });
    const invalid = (text.match(/\uFFFD/g) ?? []).length;
    return `[${name} is not valid UTF-8: ${invalid} undecodable byte sequence(s) are shown as \uFFFD]\n${text}`;
  }
}
