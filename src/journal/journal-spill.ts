// Entries that cannot reach Postgres before shutdown are written to spill files and replayed at the
// next start. They hold transcripts and tool output: the directory is private (0700), each file
// 0600, and it lives under LOUPE_HOME, outside every session workspace.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JournalEntry } from './journal-entry';

const SPILL_NAME = /^journal-spill-[\d-]+\.jsonl$/;

export function spillDirectory(home: string): string {
  return path.join(home, 'journal-spill');
}

export function writeSpill(home: string, entries: JournalEntry[]): string {
  const dir = spillDirectory(home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, `journal-spill-${Date.now()}-${process.pid}.jsonl`);
  // JSON escapes NUL and lone surrogates, so every line reads back as exactly what was recorded
  fs.writeFileSync(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n', { mode: 0o600, flag: 'a' });
  return file;
}

/** Spill files waiting to be replayed: the private directory, and the home itself (older Loupe versions). */
export function pendingSpills(home: string): string[] {
  const files: string[] = [];
  for (const dir of [home, spillDirectory(home)]) {
    try {
      for (const name of fs
        .readdirSync(dir)
        .filter((f) => SPILL_NAME.test(f))
        .sort())
        files.push(path.join(dir, name));
    } catch {
      // no such directory: nothing spilled there
    }
  }
  return files;
}

/** Entries of a spill file; dates come back as Date objects. */
export function readSpill(file: string): JournalEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line, reviveDates) as JournalEntry);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function reviveDates(key: string, value: unknown): unknown {
  return typeof value === 'string' && /At$/.test(key) && ISO_DATE.test(value) ? new Date(value) : value;
}

export function markReplayed(file: string): void {
  fs.renameSync(file, `${file}.replayed`);
  fs.chmodSync(`${file}.replayed`, 0o600);
}
