// The live side of eval runs: what the eval recorder journals (run rows, trial rows) fanned out to
// the sockets that follow a run (its trials as they start and end, its progress) or the runs list.
// The runner never touches a socket: this reads the journal's stream, as the session feed does. A
// running run's counts are tallied here from its trial rows (the run row's own are written when it
// finishes), seeded once from Postgres for a run this process did not start.
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { RunViews } from '../eval/run-views';
import type { EvalRunRow, EvalTrialRow, JournalEntry } from '../journal/journal-entry';
import { JournalService } from '../journal/journal.service';
import { KeyedSubscription } from './keyed-subscription';
import { liveRun, liveTrial, tallyOf } from './run-wire';
import type { FlowSocket } from './socket-flow';

/** what is known of one run while it runs: its row and each current trial's status and profile */
interface RunState {
  row?: EvalRunRow;
  trials: Map<string, { status: string; profile: string | null }>;
}

const FINISHED = (status: string) => status !== 'running' && status !== 'queued';

@Injectable()
export class RunFeed implements OnModuleDestroy {
  private readonly byRun = new Map<string, Set<KeyedSubscription>>();
  private readonly listSubscribers = new Set<KeyedSubscription>();
  private readonly runs = new Map<string, RunState>();
  private readonly subscription: Subscription;

  constructor(
    private readonly journal: JournalService,
    private readonly views: RunViews,
  ) {
    this.subscription = journal.entries$.subscribe((entry) => this.onEntry(entry));
  }

  subscribe(socket: FlowSocket, runId: string): KeyedSubscription {
    const sub = new KeyedSubscription(socket, ['run:resync', { runId, reason: 'overflow' }], undefined, () => this.caughtUp());
    let set = this.byRun.get(runId);
    if (!set) this.byRun.set(runId, (set = new Set()));
    set.add(sub);
    return sub;
  }

  unsubscribe(runId: string, sub: KeyedSubscription): void {
    sub.close();
    const set = this.byRun.get(runId);
    set?.delete(sub);
    if (set && !set.size) this.byRun.delete(runId);
  }

  subscribeList(socket: FlowSocket): KeyedSubscription {
    const sub = new KeyedSubscription(socket, ['runs:resync', { reason: 'overflow' }], 500, () => this.caughtUp());
    this.listSubscribers.add(sub);
    return sub;
  }

  unsubscribeList(sub: KeyedSubscription): void {
    sub.close();
    this.listSubscribers.delete(sub);
  }

  /** Resolves once what was journaled before is in Postgres (a read after it misses nothing a subscriber will not get). */
  async caughtUp(): Promise<void> {
    await this.journal.flush(5_000).catch(() => undefined);
  }

  get subscriberCount(): number {
    let n = this.listSubscribers.size;
    for (const set of this.byRun.values()) n += set.size;
    return n;
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
    for (const set of this.byRun.values()) for (const sub of set) sub.close();
    for (const sub of this.listSubscribers) sub.close();
  }

  private onEntry(entry: JournalEntry): void {
    if (entry.kind === 'eval_run') this.onRun(entry.row);
    else if (entry.kind === 'eval_trial') this.onTrial(entry.row);
  }

  private onRun(row: EvalRunRow): void {
    const state = this.stateOf(row.id);
    state.row = row;
    if (!FINISHED(row.status)) return this.sendRun(row.id, state);
    this.runs.delete(row.id);
    // a page reads a finished run's statistics back on this update: announce it once the journal has
    // written them (and the row), or the read can come back without them and nothing would follow it
    void this.caughtUp().then(() => this.sendRun(row.id, state));
  }

  private onTrial(row: EvalTrialRow): void {
    const subs = this.byRun.get(row.runId);
    if (subs) for (const s of subs) s.offer(`trial:${row.id}`, ['run:trial', { runId: row.runId, trial: liveTrial(row) }]);
    const state = this.stateOf(row.runId);
    const before = state.trials.get(row.id)?.status;
    const profile = typeof row.metadata?.profile === 'string' ? row.metadata.profile : null;
    state.trials.set(row.id, { status: row.status, profile });
    if (before !== row.status) this.sendRun(row.runId, state);
  }

  private sendRun(runId: string, state: RunState): void {
    if (!state.row || (!this.byRun.has(runId) && !this.listSubscribers.size)) return;
    const current = [...state.trials.values()];
    const profiles = [...new Set(current.map((t) => t.profile).filter((p): p is string => p !== null))];
    const run = liveRun(state.row, tallyOf(current.map((t) => t.status)), profiles);
    for (const s of this.byRun.get(runId) ?? []) s.offer(`run:${runId}`, ['run:update', { run }]);
    for (const s of this.listSubscribers) s.offer(`run:${runId}`, ['run:update', { run }]);
  }

  private stateOf(runId: string): RunState {
    let state = this.runs.get(runId);
    if (state) return state;
    this.runs.set(runId, (state = { trials: new Map() }));
    void this.seed(runId, state);
    return state;
  }

  /** A run first seen mid-way (resumed here): the trials Postgres holds, under what came live since. */
  private async seed(runId: string, state: RunState): Promise<void> {
    try {
      const rows = await this.views.currentTrials(runId);
      let added = false;
      for (const r of rows) {
        if (state.trials.has(r.id)) continue;
        state.trials.set(r.id, { status: r.status, profile: r.profile });
        added = true;
      }
      if (added && this.runs.get(runId) === state) this.sendRun(runId, state);
    } catch {
      // the live counts then start from what comes live; the list's next read corrects them
    }
  }
}
