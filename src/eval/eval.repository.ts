import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvalRunEntity, EvalTrialEntity } from '../database/entities';

/** Read side of eval runs (written through the journal by EvalRunRecorder). */
@Injectable()
export class EvalRepository {
  constructor(private readonly dataSource: DataSource) {}

  getRun(id: string): Promise<EvalRunEntity | null> {
    return this.dataSource.getRepository(EvalRunEntity).findOne({ where: { id } });
  }

  trialsOf(runId: string): Promise<EvalTrialEntity[]> {
    return this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId }, order: { startedAt: 'ASC' } });
  }
}
