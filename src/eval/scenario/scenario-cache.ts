// Parsed scenarios kept in LOUPE_HOME between runs: parsing and checking a suite of ~140 files took
// ~0.8 s of every `loupe eval`'s start (and loading the parser and its schemas more). An entry is
// found by the file's content hash, its path as shown and its absolute path; the whole cache by the
// Loupe build that wrote it (version and the parser's compiled file: a build rewrites every file)
// and the spec catalogue `covers:` is checked against. Only scenarios that parsed cleanly are kept:
// a file with a problem is parsed, and reported, every time.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Scenario } from './scenario';

/** More entries than this (scenarios of many checkouts and edits): only the last load's are kept. */
export const MAX_CACHED_SCENARIOS = 5_000;
const FILE = 'scenarios.v1.bin';

/** An entry's key: what the parse reads besides the code (the text, the path shown in problems, the absolute path). */
export function scenarioCacheKey(text: string, file: string, absFile: string): string {
  return `${createHash('sha256').update(text).digest('hex')}\0${file}\0${absFile}`;
}

/** The build and data a cached parse depends on: a cache written under another stamp is not read. */
export function scenarioCacheStamp(version: string, parserFile: string, catalogueFile: string): string {
  const stat = (f: string) => {
    try {
      const s = fs.statSync(f);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  return `${version}|${parserFile}|${stat(parserFile)}|${stat(catalogueFile)}`;
}

interface Stored {
  stamp: string;
  entries: Map<string, Scenario>;
}

export class ScenarioCache {
  private readonly file: string;
  private stored: Map<string, Scenario> = new Map();
  private readonly used = new Map<string, Scenario>();
  private changed = false;

  constructor(
    dir: string,
    private readonly stamp: string,
  ) {
    this.file = path.join(dir, FILE);
    try {
      const read = deserialize(fs.readFileSync(this.file)) as Stored;
      // (a Map made by deserialize belongs to Node's own realm: not `instanceof Map` under jest)
      if (read?.stamp === stamp && Object.prototype.toString.call(read.entries) === '[object Map]') this.stored = read.entries;
    } catch {
      // none yet, unreadable or from another Node: parsed anew, and written again
    }
  }

  get(key: string): Scenario | undefined {
    const hit = this.stored.get(key);
    if (hit) this.used.set(key, hit);
    return hit;
  }

  /** A scenario that parsed without a problem (never a failure). */
  set(key: string, scenario: Scenario): void {
    this.used.set(key, scenario);
    this.changed = true;
  }

  /** Written when something new was parsed; a cache that cannot be written only costs the next start its parse. */
  save(): void {
    if (!this.changed) return;
    const entries = new Map(this.used);
    if (this.stored.size + this.used.size <= MAX_CACHED_SCENARIOS) for (const [k, v] of this.stored) if (!entries.has(k)) entries.set(k, v);
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(tmp, serialize({ stamp: this.stamp, entries } satisfies Stored), { mode: 0o600 });
      // whole or not at all, whoever else writes it meanwhile
      fs.renameSync(tmp, this.file);
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
}
