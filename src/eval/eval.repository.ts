import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EvalRunEntity, EvalTrialEntity } from '../database/entities';

@Injectable()
export class EvalRepository {
  constructor(private readonly dataSource: DataSource) {}

  async createRun(run: Pick<EvalRunEntity, 'id' | 'options' | 'scenarioCount' | 'loupeVersion'>): Promise<void> {
    await this.dataSource.getRepository(EvalRunEntity).insert({
      ...run, status: 'running', startedAt: new Date(), finishedAt: null, trialCount: 0, passed: 0, failed: 0, errored: 0,
    } as QueryDeepPartialEntity<EvalRunEntity>);
  }

  async finishRun(id: string, counts: Pick<EvalRunEntity, 'trialCount' | 'passed' | 'failed' | 'errored' | 'status'>): Promise<void> {
    await this.dataSource.getRepository(EvalRunEntity).update({ id }, { ...counts, finishedAt: new Date() });
  }

  async createTrial(trial: Pick<EvalTrialEntity, 'id' | 'runId' | 'scenarioId' | 'scenarioTitle' | 'scenarioFile' | 'scenarioHash' | 'model' | 'trialIndex'>): Promise<void> {
    await this.dataSource.getRepository(EvalTrialEntity).insert({
      ...trial, sessionId: null, status: 'running', expectations: [], failedExpectations: [], iterations: 0, eventCount: 0,
      durationMs: null, error: null, startedAt: new Date(), finishedAt: null,
    });
  }

  async finishTrial(id: string, result: Pick<EvalTrialEntity, 'sessionId' | 'status' | 'expectations' | 'failedExpectations' | 'iterations' | 'eventCount' | 'durationMs' | 'error'>): Promise<void> {
    await this.dataSource.getRepository(EvalTrialEntity).update({ id }, { ...result, finishedAt: new Date() } as QueryDeepPartialEntity<EvalTrialEntity>);
  }

  getRun(id: string): Promise<EvalRunEntity | null> {
    return this.dataSource.getRepository(EvalRunEntity).findOne({ where: { id } });
  }

  trialsOf(runId: string): Promise<EvalTrialEntity[]> {
    return this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId }, order: { startedAt: 'ASC' } });
  }
}
