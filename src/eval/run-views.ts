// The runs as the viewer reads them: list rows with their mode, models, configurations, profiles and
// progress (a running run's counts come from its trial rows: the run row's own are written when it
// finishes), and a run's page (its row, cells and trials as matrix chips). Read side only.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../common/request-errors';
import type { EvalCellEntity, EvalRunEntity } from '../database/entities';
import { JournalService } from '../journal/journal.service';
import type { Recorded } from '../journal/session-query.repository';
import { liveRun, liveTrial, tallyOf, type LiveRun, type LiveTrial, type TrialStatusTally } from '../live/run-wire';
import { EvalRepository } from './eval.repository';
import { outcomesUnderProfile } from './profile-split';
import { compareRuns, type RunComparison } from './statistics/compare';
import { isFinal, outcomeFromRow } from './trials/trial-rows';

export interface RunPage {
  run: LiveRun;
  /** written when the run finishes: the statistics of each cell (empty while it runs) */
  cells: Array<Recorded<EvalCellEntity>>;
  /** every attempt, replaced ones included (the page shows the attempt that counts) */
  trials: LiveTrial[];
  /** the run's whole statistics (null until it finishes) */
  statistics: Record<string, unknown> | null;
}

export type RunListItem = Omit<Recorded<EvalRunEntity>, keyof LiveRun> & LiveRun;

interface TrialAggregate {
  run_id: string;
  profiles: string[] | null;
  statuses: string[] | null;
}

@Injectable()
export class RunViews {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: EvalRepository,
    private readonly journal: JournalService,
  ) {}

  /** Newest first; each run's stored row with its list fields beside it. */
  async list(limit: number, offset: number): Promise<RunListItem[]> {
    const runs = await this.runs.listRuns(limit, offset);
    const aggregates = await this.aggregates(runs.map((r) => r.id));
    return runs.map((r) => {
      const a = aggregates.get(r.id);
      return { ...r, ...liveRun(r as unknown as Parameters<typeof liveRun>[0], a?.tally, a?.profiles) };
    });
  }

  /** One run's list row (404 when it is not recorded). */
  async summary(id: string): Promise<LiveRun> {
    const run = await this.journal.readBack(() => this.runs.getRun(id));
    if (!run) throw new NotFoundError(`no eval run ${id}`);
    const a = (await this.aggregates([id])).get(id);
    return liveRun(run as unknown as Parameters<typeof liveRun>[0], a?.tally, a?.profiles);
  }

  async page(id: string): Promise<RunPage> {
    const run = await this.journal.readBack(() => this.runs.getRun(id));
    if (!run) throw new NotFoundError(`no eval run ${id}`);
    const [cells, trials] = await Promise.all([this.runs.cellsOf(id), this.runs.trialsOf(id)]);
    const current = trials.filter((t) => !t.replacedBy);
    const profiles = [...new Set(current.map((t) => t.metadata?.profile).filter((p): p is string => typeof p === 'string'))];
    const view = liveRun(run as unknown as Parameters<typeof liveRun>[0], tallyOf(current.map((t) => t.status)), profiles);
    return {
      run: view,
      cells,
      trials: trials.map((t) => liveTrial(t as unknown as Parameters<typeof liveTrial>[0])),
      statistics: run.statistics,
    };
  }

  /**
   * Profile `profileA` of run `a` (the baseline) against profile `profileB` of run `b` — two profiles
   * of one run when a = b: the final trials under each, matched on scenario, model and the rest of
   * their configuration, with the same tests and corrections as two runs.
   */
  async compareProfiles(a: string, profileA: string, b: string, profileB: string, alpha?: number): Promise<RunComparison> {
    const [sideA, sideB] = await Promise.all([this.profileOutcomes(a, profileA), this.profileOutcomes(b, profileB)]);
    return compareRuns(sideA, sideB, { alpha });
  }

  private async profileOutcomes(id: string, profile: string) {
    const run = await this.journal.readBack(() => this.runs.getRun(id));
    if (!run) throw new NotFoundError(`no eval run ${id}`);
    const trials = (await this.runs.trialsOf(id))
      .filter((t) => isFinal(t) && !t.replacedBy)
      .map((t) => ({ profile: typeof t.metadata?.profile === 'string' ? t.metadata.profile : null, outcome: outcomeFromRow(t) }));
    return outcomesUnderProfile(trials, profile);
  }

  /** A run's current attempts (replaced ones left out): id, status and profile. */
  async currentTrials(runId: string): Promise<Array<{ id: string; status: string; profile: string | null }>> {
    return (await this.dataSource.query(
      `SELECT id, status, metadata->>'profile' AS profile FROM eval_trials WHERE run_id = $1 AND replaced_by IS NULL`,
      [runId],
    )) as Array<{ id: string; status: string; profile: string | null }>;
  }

  /** Per run: the profiles its trials ran under and the counts of its current attempts. */
  async aggregates(ids: string[]): Promise<Map<string, { profiles: string[]; tally: TrialStatusTally }>> {
    if (!ids.length) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT run_id,
              array_agg(DISTINCT metadata->>'profile') FILTER (WHERE metadata->>'profile' IS NOT NULL) AS profiles,
              array_agg(status) AS statuses
         FROM eval_trials
        WHERE run_id = ANY($1::uuid[]) AND replaced_by IS NULL
        GROUP BY run_id`,
      [ids],
    )) as TrialAggregate[];
    return new Map(rows.map((r) => [r.run_id, { profiles: r.profiles ?? [], tally: tallyOf(r.statuses ?? []) }]));
  }
}
