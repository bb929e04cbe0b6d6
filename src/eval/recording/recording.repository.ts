// Read side of recordings: a recorded trial with its exchanges, looked up by the trial it replays
// (its cell and index — the final attempt, never an interrupted one), and the rows of a whole run for
// export. Written through the journal (TrialRecording).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvalCellEntity, EvalExchangeEntity, EvalRunEntity, EvalTrialEntity } from '../../database/entities';
import { restoreOriginals } from '../../journal/storable-text';
import type { Recorded } from '../../journal/session-query.repository';
import type { RecordedTrial, StoredExchange } from './trial-replay';

export interface TrialSelector {
  scenarioId: string;
  model: string;
  configKey: string;
  trialIndex: number;
}

export function toStoredExchange(x: Recorded<EvalExchangeEntity>): StoredExchange {
  return {
    upstream: x.upstream as StoredExchange['upstream'],
    kind: x.kind as StoredExchange['kind'],
    position: x.position,
    method: x.method,
    path: x.path,
    request: x.request,
    requestHash: x.requestHash,
    model: x.model,
    modelDigest: x.modelDigest,
    status: x.status,
    headers: x.headers,
    headersAtMs: x.headersAtMs,
    chunks: x.chunks,
    ending: x.ending as StoredExchange['ending'],
    endedAtMs: x.endedAtMs,
    error: x.error,
  };
}

/** The recorded session's workspace path and id, kept in the trial's metadata when it was recorded. */
export function recordingContextOf(metadata: Record<string, unknown>): RecordedTrial['context'] {
  const r = (metadata.recording ?? {}) as { sessionId?: string; workspace?: string };
  return { sessionId: r.sessionId ?? null, workspaceDir: r.workspace ?? null };
}

@Injectable()
export class RecordingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Exchanges recorded for a run (0: it was not recorded). */
  exchangeCount(runId: string): Promise<number> {
    return this.dataSource.getRepository(EvalExchangeEntity).count({ where: { runId } });
  }

  /** The final attempt of one trial of a recorded run, with everything it exchanged; null when the run has no such trial. */
  async recordedTrial(runId: string, t: TrialSelector): Promise<RecordedTrial | null> {
    const rows = await this.dataSource.getRepository(EvalTrialEntity).find({
      where: { runId, scenarioId: t.scenarioId, model: t.model, configKey: t.configKey, trialIndex: t.trialIndex },
      order: { attempt: 'DESC' },
    });
    const trial = rows.find((r) => r.status !== 'interrupted' && r.status !== 'running');
    if (!trial) return null;
    const exchanges = await this.dataSource
      .getRepository(EvalExchangeEntity)
      .find({ where: { trialId: trial.id }, order: { upstream: 'ASC', kind: 'ASC', position: 'ASC' } });
    return {
      runId,
      trialId: trial.id,
      scenarioId: trial.scenarioId,
      model: trial.model,
      configKey: trial.configKey,
      trialIndex: trial.trialIndex,
      context: recordingContextOf(restoreOriginals(trial).metadata),
      exchanges: exchanges.map(restoreOriginals).map(toStoredExchange),
    };
  }

  /** Everything a recorded run is made of, for `loupe eval export`: the run, its trials and cells, then its exchanges trial by trial. */
  async *exportRows(
    runId: string,
  ): AsyncGenerator<
    | { type: 'run'; row: Recorded<EvalRunEntity> }
    | { type: 'trial'; row: Recorded<EvalTrialEntity> }
    | { type: 'cell'; row: Recorded<EvalCellEntity> }
    | { type: 'exchange'; row: Recorded<EvalExchangeEntity> }
  > {
    const run = await this.dataSource.getRepository(EvalRunEntity).findOne({ where: { id: runId } });
    if (!run) return;
    yield { type: 'run', row: restoreOriginals(run) };
    const trials = await this.dataSource.getRepository(EvalTrialEntity).find({ where: { runId }, order: { startedAt: 'ASC' } });
    for (const t of trials) yield { type: 'trial', row: restoreOriginals(t) };
    for (const c of await this.dataSource.getRepository(EvalCellEntity).find({ where: { runId }, order: { key: 'ASC' } }))
      yield { type: 'cell', row: restoreOriginals(c) };
    for (const t of trials) {
      const exchanges = await this.dataSource
        .getRepository(EvalExchangeEntity)
        .find({ where: { trialId: t.id }, order: { upstream: 'ASC', kind: 'ASC', position: 'ASC' } });
      for (const x of exchanges) yield { type: 'exchange', row: restoreOriginals(x) };
    }
  }
}
