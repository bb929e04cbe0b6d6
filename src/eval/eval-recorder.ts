// An eval run's view of the journal: run, trial and cell rows go through the same batched,
// retried, spilled path as sessions, so a database restart mid-run loses no result and redoes no trial.
import { hostname } from 'node:os';
import type { EvalCellRow, EvalRunRow, EvalTrialRow } from '../journal/journal-entry';
import type { JournalSink } from '../journal/session-recorder';

export type NewRun = Pick<EvalRunRow, 'id' | 'scenarioCount' | 'options' | 'loupeVersion' | 'config'>;
export type NewTrial = Pick<
  EvalTrialRow,
  'id' | 'scenarioId' | 'scenarioTitle' | 'scenarioFile' | 'scenarioHash' | 'model' | 'trialIndex' | 'configKey' | 'config' | 'mode'
> &
  Partial<Pick<EvalTrialRow, 'attempt' | 'workerId'>>;
export type TrialResult = Pick<
  EvalTrialRow,
  | 'sessionId'
  | 'status'
  | 'expectations'
  | 'failedExpectations'
  | 'iterations'
  | 'eventCount'
  | 'durationMs'
  | 'error'
  | 'metadata'
  | 'outcome'
  | 'invariantViolations'
>;

export class EvalRunRecorder {
  private readonly run: EvalRunRow;
  private readonly trials = new Map<string, EvalTrialRow>();

  /**
   * A new run (written at once), or — with `existing` — a run recorded earlier that this process
   * takes over: a resumed run (written as running again, owned by this process) or a queued run whose
   * trials a worker runs (the run row is left to whoever closes it).
   */
  constructor(
    private readonly sink: JournalSink,
    init: NewRun | { existing: EvalRunRow; resume: boolean },
    private readonly now = () => new Date(),
  ) {
    if ('existing' in init) {
      this.run = { ...init.existing };
      if (init.resume) {
        Object.assign(this.run, { status: 'running', finishedAt: null, ownerPid: process.pid, ownerHost: hostname() });
        this.sink.append({ kind: 'eval_run', row: { ...this.run } });
      }
      return;
    }
    this.run = {
      ...init,
      status: 'running',
      startedAt: this.now(),
      finishedAt: null,
      trialCount: 0,
      passed: 0,
      failed: 0,
      unjudged: 0,
      errored: 0,
      ownerPid: process.pid,
      ownerHost: hostname(),
      statistics: null,
    };
    this.sink.append({ kind: 'eval_run', row: { ...this.run } });
  }

  get row(): EvalRunRow {
    return { ...this.run };
  }

  get runId(): string {
    return this.run.id;
  }

  trialStarted(trial: NewTrial): void {
    const row: EvalTrialRow = {
      ...trial,
      runId: this.run.id,
      sessionId: null,
      status: 'running',
      expectations: [],
      failedExpectations: [],
      iterations: 0,
      eventCount: 0,
      durationMs: null,
      error: null,
      startedAt: this.now(),
      finishedAt: null,
      metadata: {},
      outcome: null,
      invariantViolations: [],
      attempt: trial.attempt ?? 1,
      replacedBy: null,
      workerId: trial.workerId ?? null,
    };
    this.trials.set(trial.id, row);
    this.sink.append({ kind: 'eval_trial', row: { ...row } });
  }

  trialFinished(id: string, result: TrialResult): void {
    const row = this.trials.get(id);
    if (!row) throw new Error(`trial ${id} was never started`);
    Object.assign(row, result, { finishedAt: this.now() });
    this.trials.delete(id);
    this.sink.append({ kind: 'eval_trial', row: { ...row } });
  }

  /** A trial whose result this process must not write (someone else has it now). */
  forget(id: string): void {
    this.trials.delete(id);
  }

  cells(cells: Array<Omit<EvalCellRow, 'runId'>>): void {
    for (const cell of cells) this.sink.append({ kind: 'eval_cell', row: { ...cell, runId: this.run.id } });
  }

  finish(
    status: EvalRunRow['status'],
    counts: Pick<EvalRunRow, 'trialCount' | 'passed' | 'failed' | 'unjudged' | 'errored'>,
    statistics: Record<string, unknown> | null,
  ): void {
    Object.assign(this.run, counts, { status, statistics, finishedAt: this.now() });
    this.sink.append({ kind: 'eval_run', row: { ...this.run } });
  }
}
