import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Subject } from 'rxjs';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { toBatch, type JournalEntry } from './journal-entry';
import { JournalRepository } from './journal.repository';

const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 5_000;
const SHUTDOWN_DEADLINE_MS = 30_000;

/**
 * The one way anything is recorded. Entries are accepted synchronously (the loop never waits on
 * Postgres), fanned out to live subscribers at once, and written in batches in emit order. A failed
 * write keeps its batch and retries with backoff (Postgres restarts are survived); at shutdown
 * whatever still cannot be written is spilled to a JSONL file, never dropped.
 */
@Injectable()
export class JournalService implements BeforeApplicationShutdown, OnApplicationBootstrap {
  private readonly logger = new Logger(JournalService.name);
  private pending: JournalEntry[] = [];
  private writing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private consecutiveFailures = 0;
  private closed = false;
  /** live fan-out (WebSocket viewer, tests) */
  readonly entries$ = new Subject<JournalEntry>();
  enabled = true;
  written = 0;

  constructor(
    private readonly repository: JournalRepository,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
  ) {}

  /** Entries spilled by an earlier run that could not reach Postgres are written now. */
  async onApplicationBootstrap(): Promise<void> {
    await this.replaySpills();
  }

  async replaySpills(): Promise<number> {
    let files: string[];
    try {
      files = fs.readdirSync(this.config.home).filter((f) => /^journal-spill-\d+\.jsonl$/.test(f)).sort();
    } catch {
      return 0;
    }
    let replayed = 0;
    for (const name of files) {
      const file = path.join(this.config.home, name);
      const entries = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as JournalEntry);
      try {
        for (let i = 0; i < entries.length; i += this.config.journal.maxBatch) {
          await this.repository.writeBatch(toBatch(entries.slice(i, i + this.config.journal.maxBatch)));
        }
        fs.renameSync(file, `${file}.replayed`);
        replayed += entries.length;
        this.logger.log(`replayed ${entries.length} spilled journal entries from ${file}`);
      } catch (e) {
        this.logger.error(`could not replay ${file} (kept for the next start): ${(e as Error).message}`);
      }
    }
    return replayed;
  }

  append(entry: JournalEntry): void {
    this.entries$.next(entry);
    if (!this.enabled) return;
    if (this.closed) {
      this.logger.error(`journal entry after shutdown (${entry.kind}); spilling it`);
      this.spill([entry]);
      return;
    }
    this.pending.push(entry);
    if (this.pending.length >= this.config.journal.maxBatch) this.kick();
    else this.schedule(this.config.journal.flushIntervalMs);
  }

  get backlog(): number {
    return this.pending.length;
  }

  /** Resolves once everything appended before the call is in Postgres (rejects after `timeoutMs`). */
  async flush(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.length || this.writing) {
      if (Date.now() > deadline) {
        throw new Error(`journal flush timed out with ${this.pending.length} entries unwritten (Postgres unreachable?)`);
      }
      if (this.writing) await this.writing;
      else await this.writeNext();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Drains to Postgres; what cannot be written before the deadline is spilled to a file. */
  async close(deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<string | undefined> {
    if (this.closed) return undefined;
    let spilled: string | undefined;
    try {
      await this.flush(deadlineMs);
    } catch (e) {
      this.logger.error(String(e));
      // a write may still be in flight; whatever it holds is back in `pending` if it fails
      await this.writing?.catch(() => undefined);
      spilled = this.spill(this.pending.splice(0));
    }
    this.closed = true;
    clearTimeout(this.timer);
    this.entries$.complete();
    return spilled;
  }

  private schedule(ms: number): void {
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, ms);
    this.timer.unref();
  }

  private kick(): void {
    if (this.writing) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.writeNext();
  }

  private writeNext(): Promise<void> {
    if (this.writing) return this.writing;
    const batch = this.pending.splice(0, this.config.journal.maxBatch);
    if (!batch.length) return Promise.resolve();
    this.writing = this.repository
      .writeBatch(toBatch(batch))
      .then(() => {
        this.written += batch.length;
        if (this.consecutiveFailures) this.logger.log(`journal writes recovered after ${this.consecutiveFailures} failures`);
        this.consecutiveFailures = 0;
      })
      .catch(async (e: unknown) => {
        this.pending.unshift(...batch);
        this.consecutiveFailures++;
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (this.consecutiveFailures - 1));
        this.logger.warn(`journal write failed (${batch.length} entries kept, retry in ${delay} ms): ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, delay).unref());
      })
      .finally(() => {
        this.writing = undefined;
        if (this.pending.length && !this.closed) this.schedule(0);
      });
    return this.writing;
  }

  private spill(entries: JournalEntry[]): string | undefined {
    if (!entries.length) return undefined;
    const file = path.join(this.config.home, `journal-spill-${Date.now()}.jsonl`);
    fs.mkdirSync(this.config.home, { recursive: true });
    fs.appendFileSync(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    this.logger.error(`${entries.length} journal entries could not be written to Postgres; saved to ${file}`);
    return file;
  }
}
