import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvalCellEntity, EvalRunEntity, EvalTrialEntity } from '../database/entities';
import type { Recorded } from '../journal/session-query.repository';
import { restoreOriginals } from '../journal/storable-text';
import type { TrialOutcome } from './statistics/statistics-types';
import { isFinal, outcomeFromRow } from './trials/trial-rows';

/** Read side of eval runs (written through the journal by EvalRunRecorder). */
@Injectable()
export class EvalRepository {
  constructor(private readonly dataSource: DataSource) {}

  async getRun(id: string): Promise<Recorded<EvalRunEntity> | null> {
    const run = await this.dataSource.getRepository(EvalRunEntity).findOne({ where: { id } });
    return run && restoreOriginals(run);
  }

  async listRuns(limit = 50, offset = 0): Promise<Array<Recorded<EvalRunEntity>>> {
    const runs = await this.dataSource.getRepository(EvalRunEntity).find({ order: { startedAt: 'DESC' }, take: limit, skip: offset });
    return runs.map(restoreOriginals);
  }

  async trialsOf(runId: string): Promise<Array<Recorded<EvalTrialEntity>>> {
    const trials = await this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId }, order: { startedAt: 'ASC' } });
    return trials.map(restoreOriginals);
  }

  /** The attempts at one planned trial of a run (scenario × model × configuration × index), oldest first. */
  async attemptsOf(
    runId: string,
    job: { scenarioId: string; model: string; configKey: string; trialIndex: number },
  ): Promise<Array<Recorded<EvalTrialEntity>>> {
    const trials = await this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId, ...job }, order: { attempt: 'ASC' } });
    return trials.map(restoreOriginals);
  }

  async cellsOf(runId: string): Promise<Array<Recorded<EvalCellEntity>>> {
    const cells = await this.dataSource.getRepository(EvalCellEntity).find({ where: { runId }, order: { key: 'ASC' } });
    return cells.map(restoreOriginals);
  }

  /** The outcomes of a run's trials that reached a verdict (interrupted and running ones have none). */
  async outcomesOf(runId: string): Promise<TrialOutcome[]> {
    const trials = await this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId } });
    return trials.filter(isFinal).map(outcomeFromRow);
  }

  /** An interrupted trial rerun as a new attempt: the two are linked, and the old one stays interrupted. */
  async markReplaced(trialId: string, replacedBy: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE eval_trials SET status = 'interrupted', replaced_by = $2,
              error = COALESCE(error, 'interrupted'), finished_at = COALESCE(finished_at, now())
        WHERE id = $1 AND status IN ('running', 'interrupted')`,
      [trialId, replacedBy],
    );
  }
}
