// A recorded run as a file: gzipped JSON Lines — a header, the run, its trials and cells, then every
// exchange — so a run recorded on a GPU box replays anywhere (`loupe eval export RUN > run.loupe.jsonl.gz`,
// `loupe eval import run.loupe.jsonl.gz`, or `--replay run.loupe.jsonl.gz` directly). Sessions stay
// behind: a trial keeps its session id and workspace path in its metadata, which is all a replay needs.
import * as fs from 'node:fs';
import * as readline from 'node:readline';
import type { Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { EvalCellRow, EvalExchangeRow, EvalRunRow, EvalTrialRow } from '../../journal/journal-entry';

export const RECORDING_FORMAT = 'loupe-recording';
export const RECORDING_VERSION = 1;

export type RecordingLine =
  | { type: 'run'; row: EvalRunRow }
  | { type: 'trial'; row: EvalTrialRow }
  | { type: 'cell'; row: EvalCellRow }
  | { type: 'exchange'; row: EvalExchangeRow };

export class RecordingFileError extends Error {}

/** Writes the lines gzipped to `out`; resolves with the number of exchanges once everything is flushed. */
export async function writeRecording(lines: AsyncIterable<RecordingLine>, out: Writable): Promise<number> {
  const gzip = createGzip();
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('error', reject);
    out.on('error', reject);
    gzip.pipe(out).on('finish', resolve);
    if (out === process.stdout) gzip.on('end', resolve);
  });
  const write = async (value: unknown) => {
    if (!gzip.write(`${JSON.stringify(value)}\n`)) await new Promise((r) => gzip.once('drain', r));
  };
  let exchanges = 0;
  await write({ type: RECORDING_FORMAT, version: RECORDING_VERSION, exportedAt: new Date().toISOString() });
  for await (const line of lines) {
    if (line.type === 'exchange') exchanges++;
    await write(line);
  }
  gzip.end();
  await done;
  return exchanges;
}

const DATE_FIELDS: Record<RecordingLine['type'], string[]> = {
  run: ['startedAt', 'finishedAt'],
  trial: ['startedAt', 'finishedAt'],
  cell: [],
  exchange: ['recordedAt'],
};

/** Whether the file starts like a gzip stream (magic bytes 1f 8b). */
function isGzip(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    fs.readSync(fd, head, 0, 2, 0);
    return head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a recording file (gzipped, or plain JSON Lines), checking its header and every line's shape. */
export async function* readRecording(file: string): AsyncGenerator<RecordingLine> {
  const input = fs.createReadStream(file);
  const text = isGzip(file) ? input.pipe(createGunzip()) : input;
  const lines = readline.createInterface({ input: text, crlfDelay: Infinity });
  let n = 0;
  for await (const raw of lines) {
    n++;
    if (!raw.trim()) continue;
    let value: { type?: string; version?: number; row?: Record<string, unknown> };
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new RecordingFileError(`${file}:${n}: not JSON (${(e as Error).message})`);
    }
    if (n === 1) {
      if (value.type !== RECORDING_FORMAT)
        throw new RecordingFileError(`${file}: not a Loupe recording (its first line is not a ${RECORDING_FORMAT} header)`);
      if (value.version !== RECORDING_VERSION)
        throw new RecordingFileError(`${file}: recording format version ${value.version}; this Loupe reads version ${RECORDING_VERSION}`);
      continue;
    }
    const type = value.type as RecordingLine['type'];
    if (!(type in DATE_FIELDS) || !value.row || typeof value.row !== 'object')
      throw new RecordingFileError(`${file}:${n}: expected a run, trial, cell or exchange line, got ${JSON.stringify(value.type)}`);
    for (const f of DATE_FIELDS[type]) if (typeof value.row[f] === 'string') value.row[f] = new Date(value.row[f] as string);
    yield { type, row: value.row } as unknown as RecordingLine;
  }
  if (n === 0) throw new RecordingFileError(`${file}: empty`);
}
