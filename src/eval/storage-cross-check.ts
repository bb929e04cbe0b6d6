// Postgres checked against the journal's own count of each session's events (a loss would show as a
// difference). A run checks its sessions in batches as it goes, each once its rows are flushed, and
// the rest after its final flush: the sessions waiting for the check stay few however long the run
// (one map entry per trial otherwise, ~100 bytes each, for the whole run).
import type { EvalRunReport } from './eval-types';

type Storage = NonNullable<EvalRunReport['storage']>;
type Mismatch = Storage['mismatched'][number];

export interface CrossCheckIo {
  /** events stored per session (sessions with none absent) */
  eventCounts(sessionIds: string[]): Promise<Map<string, number>>;
  /** resolves once everything journaled so far is in Postgres */
  flush(): Promise<unknown>;
  warn(message: string): void;
  error(message: string): void;
}

/** Sessions checked in the background once this many wait. */
export const CROSS_CHECK_BATCH = 1_000;

/** The sessions whose stored count differs from the recorded one, in the order given. */
export function mismatches(recorded: ReadonlyArray<[string, number]>, stored: ReadonlyMap<string, number>): Mismatch[] {
  return recorded
    .filter(([id, n]) => (stored.get(id) ?? 0) !== n)
    .map(([id, n]) => ({ sessionId: id, recorded: n, stored: stored.get(id) ?? 0 }));
}

export class StorageCrossCheck {
  private checked = 0;
  private readonly mismatched: Mismatch[] = [];
  /** taken from the map for a batch that could not be checked then: checked at the end */
  private pending: Array<[string, number]> = [];
  private batch: Promise<void> | undefined;

  /** `recorded`: session id → events the journal recorded, filled as trials finish; checked entries are removed from it */
  constructor(
    private readonly recorded: Map<string, number>,
    private readonly io: CrossCheckIo,
    private readonly batchSize = CROSS_CHECK_BATCH,
  ) {}

  /** After each trial: a batch's worth of sessions is checked in the background (one batch at a time). */
  poll(): void {
    if (this.batch || this.recorded.size < this.batchSize) return;
    const entries = this.take();
    this.batch = this.checkBatch(entries).finally(() => (this.batch = undefined));
  }

  /** Once the run's final flush succeeded: every session not yet checked, and the run's figures. */
  async finish(): Promise<Storage> {
    await this.batch;
    const entries = [...this.pending, ...this.take()];
    this.pending = [];
    try {
      if (entries.length) this.note(entries, await this.io.eventCounts(entries.map(([id]) => id)));
    } catch (e) {
      this.io.warn(`could not cross-check the stored sessions: ${(e as Error).message}`);
      return { sessionsChecked: 0, mismatched: [] };
    }
    if (this.mismatched.length)
      this.io.error(
        `${this.mismatched.length} session(s) in Postgres differ from what the journal recorded: ${JSON.stringify(this.mismatched.slice(0, 5))}`,
      );
    return { sessionsChecked: this.checked, mismatched: this.mismatched };
  }

  private take(): Array<[string, number]> {
    const entries = [...this.recorded];
    this.recorded.clear();
    return entries;
  }

  private async checkBatch(entries: Array<[string, number]>): Promise<void> {
    try {
      await this.io.flush();
      this.note(entries, await this.io.eventCounts(entries.map(([id]) => id)));
    } catch {
      // the database away for now: these are checked with the rest, after the final flush
      this.pending.push(...entries);
    }
  }

  private note(entries: Array<[string, number]>, stored: Map<string, number>): void {
    this.checked += entries.length;
    this.mismatched.push(...mismatches(entries, stored));
  }
}
