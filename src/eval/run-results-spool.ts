// A run's finished trials, kept out of the heap until its report is made: a long run (100,000
// trials) would otherwise hold every trial's report (its provenance, settings and checks, ~3 KB)
// for the final report, and its heap would grow with the run. Each result is appended to a file
// (structured-clone serialisation: read back exactly as written, undefined and all), which is
// unlinked as soon as it is open where the system allows it (nothing left behind by a killed run).
// Should the file fail (a full disk), results are kept in memory from then on: the report is the
// same either way.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';

const HEADER_BYTES = 8; // index (uint32) and length (uint32) of each record

export class RunResultsSpool<T> {
  private fd: number | undefined;
  private file = '';
  private tried = false;
  /** bytes of whole records written */
  private written = 0;
  private readonly inMemory = new Map<number, T>();
  private count = 0;

  constructor(private readonly dir = os.tmpdir()) {}

  /** How many results were added. */
  get size(): number {
    return this.count;
  }

  add(index: number, result: T): void {
    this.count++;
    if (!this.tried) this.open();
    if (this.fd !== undefined) {
      try {
        const body = serialize(result);
        const header = Buffer.allocUnsafe(HEADER_BYTES);
        header.writeUInt32LE(index, 0);
        header.writeUInt32LE(body.length, 4);
        this.writeAll(Buffer.concat([header, body]));
        return;
      } catch {
        // the whole records written so far are read back, and the rest kept in memory
        for (const [i, r] of this.records()) this.inMemory.set(i, r);
        this.closeFile();
      }
    }
    this.inMemory.set(index, result);
  }

  /** Every result added, at its index (a sparse array: indexes not added are holes). The spool is closed. */
  read(length: number): T[] {
    const out: T[] = new Array(length);
    try {
      for (const [index, result] of this.records()) out[index] = result;
      for (const [index, result] of this.inMemory) out[index] = result;
    } finally {
      this.dispose();
    }
    return out;
  }

  private *records(): Generator<[number, T]> {
    const fd = this.fd;
    if (fd === undefined) return;
    const header = Buffer.alloc(HEADER_BYTES);
    let body = Buffer.alloc(64 * 1024);
    for (let at = 0; at + HEADER_BYTES <= this.written;) {
      readFully(fd, header, HEADER_BYTES, at);
      const index = header.readUInt32LE(0);
      const n = header.readUInt32LE(4);
      if (n > body.length) body = Buffer.alloc(Math.max(n, body.length * 2));
      readFully(fd, body, n, at + HEADER_BYTES);
      yield [index, deserialize(body.subarray(0, n)) as T];
      at += HEADER_BYTES + n;
    }
  }

  private writeAll(record: Buffer): void {
    for (let done = 0; done < record.length;) done += fs.writeSync(this.fd!, record, done, record.length - done, this.written + done);
    this.written += record.length;
  }

  dispose(): void {
    this.closeFile();
    this.inMemory.clear();
  }

  private open(): void {
    this.tried = true;
    this.file = path.join(this.dir, `loupe-run-results-${randomUUID()}.bin`);
    try {
      this.fd = fs.openSync(this.file, 'w+', 0o600);
    } catch {
      this.file = '';
      return; // kept in memory
    }
    try {
      // gone from the directory at once where open files can be unlinked (not on Windows)
      fs.unlinkSync(this.file);
      this.file = '';
    } catch {
      // removed on dispose
    }
  }

  private closeFile(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    if (this.file) fs.rmSync(this.file, { force: true });
    this.file = '';
    this.written = 0;
  }
}

function readFully(fd: number, into: Buffer, length: number, position: number): void {
  for (let done = 0; done < length;) {
    const n = fs.readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error('run results spool: the file ended inside a record');
    done += n;
  }
}
