import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvalCellEntity, EvalRunEntity, EvalTrialEntity } from '../database/entities';
import type { Recorded } from '../journal/session-query.repository';
import { restoreOriginals } from '../journal/storable-text';
import type { TrialOutcome } from './statistics/statistics-types';

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

  async cellsOf(runId: string): Promise<Array<Recorded<EvalCellEntity>>> {
    const cells = await this.dataSource.getRepository(EvalCellEntity).find({ where: { runId }, order: { key: 'ASC' } });
    return cells.map(restoreOriginals);
  }

  /** The outcomes of a finished run's trials, for comparisons (a run that does not exist has none). */
  async outcomesOf(runId: string): Promise<TrialOutcome[]> {
    const trials = await this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId } });
    return trials
      .filter((t) => t.status !== 'running')
      .map((t) => {
        const o = (t.outcome ?? {}) as Partial<TrialOutcome>;
        return {
          scenarioId: t.scenarioId,
          model: t.model,
          configKey: t.configKey,
          trial: t.trialIndex,
          status: t.status as TrialOutcome['status'],
          terminationReason: o.terminationReason ?? null,
          pathologies: o.pathologies ?? {},
          tokens: o.tokens ?? { input: 0, output: 0 },
          iterations: t.iterations,
          latency: o.latency ?? { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 },
        };
      });
  }
}
