import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown } from '@nestjs/common';
import { Observable, Subject, type Subscriber } from 'rxjs';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseHealth } from '../database/database-health';
import { HostRecorder } from './host-recorder';
import { entrySessionId, toBatch, type JournalEntry } from './journal-entry';
import { markReplayed, pendingSpills, readSpill, writeSpill } from './journal-spill';
import { JournalRepository, type PreparedBatch } from './journal.repository';
import { classifyDatabaseFailure } from '../database/database-failure';

/** The database could not take these entries now: they go back to the front of the queue. */
class EntriesUnwritten extends Error {
  constructor(
    readonly unwritten: JournalEntry[],
    readonly reason: Error,
  ) {
    super(reason.message);
  }
}

const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 5_000;
const SHUTDOWN_DEADLINE_MS = 30_000;
/** How long an API answer waits for the journal to write a row it is about to name or read back. */
export const READ_BACK_WAIT_MS = 2_000;

/**
 * The one way anything is recorded. Entries are accepted synchronously (the loop never waits on
 * Postgres), fanned out to live subscribers at once, and written in batches in emit order. A batch
 * the database cannot take now is kept and retried with backoff (Postgres restarts are survived);
 * an entry Postgres refuses as data is isolated and recorded as `journal_entry_rejected` with the
 * evidence, without holding up any other entry; at shutdown whatever still cannot be written is
 * spilled to a private file, never dropped.
 */
@Injectable()
export class JournalService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(JournalService.name);
  private readonly host = new HostRecorder(this);
  private pending: JournalEntry[] = [];
  /** entries queued since start, and how many of them are settled (written, or recorded as rejected): in queue order */
  private queued = 0;
  private settled = 0;
  /** `queued` after the latest journal_entry_rejected record: a flush under way waits for that record too */
  private rejectionMark = 0;
  private writing?: Promise<void>;
  /** the next whole batch, taken from `pending` and built while the one before it is written */
  private staged?: { entries: JournalEntry[]; prepared: PreparedBatch };
  private staging = false;
  private timer?: NodeJS.Timeout;
  /** when the oldest entry still in `pending` was appended (performance.now()) */
  private oldestPendingAt?: number;
  private consecutiveFailures = 0;
  private closed = false;
  /** live fan-out (scenario triggers, host-event collection, tests) */
  readonly entries$ = new Subject<JournalEntry>();
  /** subscribers of one session's entries (null: host events), by session id: see sessionEntries$ */
  private readonly routes = new Map<string | null, Set<Subscriber<JournalEntry>>>();
  enabled = true;
  written = 0;
  rejected = 0;

  constructor(
    private readonly repository: JournalRepository,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    @Optional() private readonly health?: DatabaseHealth,
  ) {
    this.health?.failed$.subscribe(() => this.kick());
    this.health?.restarted$.subscribe((r) => this.host.event('database_restarted', { ...r }));
  }

  /** Entries spilled by an earlier run that could not reach Postgres (called at start, see StartupRecovery). */
  async replaySpills(): Promise<number> {
    let replayed = 0;
    for (const file of pendingSpills(this.config.home)) {
      try {
        const entries = readSpill(file);
        for (let i = 0; i < entries.length; i += this.config.journal.maxBatch) {
          await this.writeOrIsolate(entries.slice(i, i + this.config.journal.maxBatch));
        }
        markReplayed(file);
        replayed += entries.length;
        this.logger.log(`replayed ${entries.length} spilled journal entries from ${file}`);
      } catch (e) {
        this.logger.error(`could not replay ${file} (kept for the next start): ${(e as Error).message}`);
      }
    }
    return replayed;
  }

  /**
   * One session's entries (null: the host's own events). Routed by id, not filtered: each open trial
   * filtering every entry made the fan-out grow with the square of the parallel slots.
   */
  sessionEntries$(sessionId: string | null): Observable<JournalEntry> {
    return new Observable<JournalEntry>((subscriber) => {
      let set = this.routes.get(sessionId);
      if (!set) this.routes.set(sessionId, (set = new Set()));
      set.add(subscriber);
      const own = set;
      return () => {
        own.delete(subscriber);
        if (!own.size && this.routes.get(sessionId) === own) this.routes.delete(sessionId);
      };
    });
  }

  append(entry: JournalEntry): void {
    // queued before it is fanned out: a subscriber that waits for the journal on hearing of it (flush)
    // waits for it too, and an entry a subscriber appends meanwhile goes after it
    const queued = this.enabled && !this.closed;
    if (queued) {
      if (!this.pending.length) this.oldestPendingAt = performance.now();
      this.pending.push(entry);
      this.queued++;
    }
    this.entries$.next(entry);
    if (this.routes.size) {
      const key = entrySessionId(entry);
      if (key !== undefined) this.routes.get(key)?.forEach((s) => s.next(entry));
    }
    if (!this.enabled) return;
    if (!queued) {
      this.logger.error(`journal entry after shutdown (${entry.kind}); spilling it`);
      this.spill([entry]);
      return;
    }
    if (this.pending.length >= this.config.journal.maxBatch) this.kick();
    else this.schedule(this.config.journal.flushIntervalMs);
  }

  get backlog(): number {
    return this.pending.length + (this.staged?.entries.length ?? 0);
  }

  /**
   * Resolves once everything appended before the call is in Postgres (rejects after `timeoutMs`);
   * what others append meanwhile is not waited for (a busy run's flush would otherwise wait for a lull).
   */
  flush(timeoutMs = 60_000): Promise<void> {
    const target = this.queued;
    const marked = this.rejectionMark;
    // an entry refused meanwhile is settled by the record of its refusal, which joins the queue at its end
    return this.writeUntil(() => this.settled >= Math.max(target, this.rejectionMark === marked ? 0 : this.rejectionMark), timeoutMs);
  }

  /**
   * `read`, and on a miss once more after writing what is pending (for at most READ_BACK_WAIT_MS):
   * a row appended but not yet written is found, and a miss costs one flush.
   */
  async readBack<T>(read: () => Promise<T | null>): Promise<T | null> {
    const found = await read();
    if (found) return found;
    await this.flush(READ_BACK_WAIT_MS).catch(() => undefined);
    return read();
  }

  private async writeUntil(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // the retry sleeps are unref'd (an idle server may exit); a caller waiting here must not see the
    // event loop drain under it while Postgres is away (a CLI would then exit 0 with nothing printed)
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      while (!done()) {
        const failure = this.health?.failure;
        if (failure) throw new Error(`journal: ${this.pending.length} entries cannot be written: ${failure.message.split('\n')[0]}`);
        if (Date.now() > deadline) {
          throw new Error(`journal flush timed out with ${this.pending.length} entries unwritten (Postgres unreachable?)`);
        }
        if (this.writing) await this.writing;
        else await this.writeNext();
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** Drains to Postgres, what is appended meanwhile included; what cannot be written before the deadline is spilled to a file. */
  async close(deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<string | undefined> {
    if (this.closed) return undefined;
    let spilled: string | undefined;
    try {
      await this.writeUntil(() => !this.pending.length && !this.staged && !this.writing, deadlineMs);
    } catch (e) {
      this.logger.error(String(e));
      // a write may still be in flight; whatever it holds is back in `pending` if it fails
      await this.writing?.catch(() => undefined);
      spilled = this.spill([...this.unstage(), ...this.pending.splice(0)]);
    }
    this.closed = true;
    clearTimeout(this.timer);
    this.entries$.complete();
    for (const set of this.routes.values()) set.forEach((s) => s.complete());
    this.routes.clear();
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
    if (this.writing) return this.stageSoon();
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.writeNext();
  }

  private writeNext(): Promise<void> {
    if (this.writing) return this.writing;
    if (this.health?.failure) return Promise.resolve();
    const staged = this.staged;
    this.staged = undefined;
    const batch = staged?.entries ?? this.pending.splice(0, this.config.journal.maxBatch);
    if (!batch.length) return Promise.resolve();
    if (!this.pending.length) this.oldestPendingAt = undefined;
    this.writing = this.writeOrIsolate(batch, staged?.prepared)
      .then(() => {
        this.settled += batch.length;
        if (this.consecutiveFailures) this.logger.log(`journal writes recovered after ${this.consecutiveFailures} failures`);
        this.consecutiveFailures = 0;
      })
      .catch(async (e: unknown) => {
        // what was written of the batch comes first (it is written in order): the rest goes back to the front
        const unwritten = e instanceof EntriesUnwritten ? e.unwritten : batch;
        this.settled += batch.length - unwritten.length;
        // a batch built meanwhile goes back behind them: emit order holds
        this.pending.unshift(...unwritten, ...this.unstage());
        this.oldestPendingAt = Number.NEGATIVE_INFINITY; // due already: they go once the backoff is over
        this.consecutiveFailures++;
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (this.consecutiveFailures - 1));
        this.logger.warn(`journal write failed (${unwritten.length} entries kept, retry in ${delay} ms): ${(e as Error).message}`);
        if (!this.health?.failure) await new Promise((r) => setTimeout(r, delay).unref());
      })
      .finally(() => {
        this.writing = undefined;
        if ((this.pending.length || this.staged) && !this.closed && !this.health?.failure) this.schedule(this.nextWriteDelay());
      });
    this.stageSoon();
    return this.writing;
  }

  /**
   * After a write, what arrived meanwhile waits out the rest of its flush interval (a whole batch
   * goes at once): a busy session's snapshots of one row then share a batch and only the last is
   * written (toBatch), in fewer, larger statements, instead of a small statement after every
   * write. No entry waits longer than the interval beyond the write in flight.
   */
  private nextWriteDelay(): number {
    if (this.staged || this.pending.length >= this.config.journal.maxBatch || this.oldestPendingAt === undefined) return 0;
    return Math.max(0, this.oldestPendingAt + this.config.journal.flushIntervalMs - performance.now());
  }

  /**
   * A whole batch waiting while one is written is built on the next turn (once that one's query is
   * sent), so this thread's work on it runs beside Postgres's; one batch is still written at a time.
   */
  private stageSoon(): void {
    if (this.staging || this.staged || this.pending.length < this.config.journal.maxBatch) return;
    this.staging = true;
    setImmediate(() => {
      this.staging = false;
      this.stage();
    });
  }

  private stage(): void {
    if (!this.writing || this.staged || this.closed || this.health?.failure) return;
    if (this.pending.length < this.config.journal.maxBatch) return;
    const entries = this.pending.splice(0, this.config.journal.maxBatch);
    try {
      this.staged = { entries, prepared: this.repository.prepare(toBatch(entries)) };
    } catch {
      // an entry that cannot be encoded is isolated by the write itself, as when nothing is staged
      this.pending.unshift(...entries);
    }
  }

  /** The staged batch's entries, no longer staged. */
  private unstage(): JournalEntry[] {
    const entries = this.staged?.entries ?? [];
    this.staged = undefined;
    return entries;
  }

  /**
   * Writes a batch; when Postgres refuses it as data, halves it until the refused entries stand
   * alone, and records each of those instead. Rejects with the entries not yet written when the
   * database is unavailable.
   */
  private async writeOrIsolate(batch: JournalEntry[], prepared?: PreparedBatch): Promise<void> {
    try {
      await (prepared ? this.repository.write(prepared) : this.repository.writeBatch(toBatch(batch)));
      this.written += batch.length;
      return;
    } catch (e) {
      if (classifyDatabaseFailure(e) === 'unavailable') throw new EntriesUnwritten(batch, e as Error);
      if (batch.length === 1) {
        this.recordRejection(batch[0], e as Error);
        return;
      }
    }
    const half = Math.ceil(batch.length / 2);
    try {
      await this.writeOrIsolate(batch.slice(0, half));
    } catch (e) {
      if (!(e instanceof EntriesUnwritten)) throw e;
      throw new EntriesUnwritten([...e.unwritten, ...batch.slice(half)], e.reason);
    }
    await this.writeOrIsolate(batch.slice(half));
  }

  private recordRejection(entry: JournalEntry, error: Error): void {
    this.rejected++;
    const sessionId =
      entry.kind === 'message_compacted'
        ? entry.sessionId
        : entry.kind === 'eval_run' || entry.kind === 'eval_cell' || entry.kind === 'eval_exchange'
          ? null
          : entry.kind === 'session'
            ? entry.row.id
            : entry.row.sessionId;
    this.logger.error(
      `Postgres refused a journal entry (${entry.kind}${sessionId ? ` of session ${sessionId}` : ''}): ${error.message}; recorded as journal_entry_rejected`,
    );
    if (entry.kind === 'event' && entry.row.type === 'journal_entry_rejected') {
      this.spill([entry]); // the record of a rejection was refused itself: keep it on disk rather than loop
      return;
    }
    this.host.event('journal_entry_rejected', {
      entryKind: entry.kind,
      sessionId,
      error: error.message,
      sqlState: (error as { code?: string }).code ?? null,
      // the entry exactly as it was, as JSON text (its escapes survive any storage)
      entry: JSON.stringify(entry),
    });
    this.rejectionMark = this.queued;
  }

  private spill(entries: JournalEntry[]): string | undefined {
    if (!entries.length) return undefined;
    const file = writeSpill(this.config.home, entries);
    this.logger.error(`${entries.length} journal entries could not be written to Postgres; saved to ${file}`);
    return file;
  }
}
