import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import {
  EvalCellEntity,
  EvalExchangeEntity,
  EvalRunEntity,
  EvalTrialEntity,
  IterationEntity,
  MessageEntity,
  SessionEntity,
  ToolCallEntity,
} from '../database/entities';
import type { EventRow, JournalBatch } from './journal-entry';
import { toStorableRow } from './storable-text';

// Postgres caps a statement at 65535 bind parameters; chunk multi-row inserts well below that.
const ROWS_PER_STATEMENT = 1000;

@Injectable()
export class JournalRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Writes one batch atomically. Runs and sessions first (the other rows reference them); every
   * field that can hold model or tool text is made storable, its exact value kept in `originals`.
   */
  async writeBatch(batch: JournalBatch): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await this.upsert(
        m,
        EvalRunEntity,
        batch.evalRuns.map((r) => toStorableRow(r, ['options', 'config'])),
      );
      await this.upsert(
        m,
        SessionEntity,
        batch.sessions.map((r) => toStorableRow(r, ['prompt', 'error', 'config', 'model', 'workspace'])),
      );
      await this.upsert(
        m,
        EvalTrialEntity,
        batch.evalTrials.map((r) => toStorableRow(r, ['expectations', 'failedExpectations', 'error', 'scenarioTitle', 'metadata'])),
      );
      await this.upsert(
        m,
        EvalCellEntity,
        batch.evalCells.map((r) => toStorableRow(r, ['config', 'statistics'])),
      );
      await this.upsert(
        m,
        EvalExchangeEntity,
        batch.evalExchanges.map((r) => toStorableRow(r, ['request', 'chunks', 'error', 'model', 'path'])),
      );
      await this.upsert(
        m,
        MessageEntity,
        batch.messages.map((r) => toStorableRow(r, ['content', 'toolCalls', 'thinking', 'toolName', 'toolCallId'])),
      );
      await this.upsert(
        m,
        IterationEntity,
        batch.iterations.map((r) => toStorableRow(r, ['finishReason', 'model'])),
      );
      await this.upsert(
        m,
        ToolCallEntity,
        batch.toolCalls.map((r) => toStorableRow(r, ['id', 'name', 'arguments', 'result', 'error'])),
      );
      await this.insertEvents(m, batch.events);
      if (batch.compactions.length) {
        await m.query(
          `UPDATE messages AS msg SET compacted_at = v.at
             FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS v(session_id, idx, at)
            WHERE msg.session_id = v.session_id AND msg.idx = v.idx`,
          [batch.compactions.map((c) => c.sessionId), batch.compactions.map((c) => c.idx), batch.compactions.map((c) => c.compactedAt)],
        );
      }
    });
  }

  private async upsert<T extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<T>, rows: T[]): Promise<void> {
    if (!rows.length) return;
    const meta = m.connection.getMetadata(entity);
    const keys = meta.primaryColumns.map((c) => c.databaseName);
    const cols = meta.columns.filter((c) => !c.isPrimary).map((c) => c.databaseName);
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      await m
        .createQueryBuilder()
        .insert()
        .into(entity)
        .values(rows.slice(i, i + ROWS_PER_STATEMENT))
        .orUpdate(cols, keys)
        .updateEntity(false)
        .execute();
    }
  }

  /**
   * Events are most of the volume: one statement with one array parameter per column (unnest)
   * instead of a parameter per value. A retried batch may hold events an earlier attempt already
   * committed, hence DO NOTHING on the (session_id, seq) key.
   */
  private async insertEvents(m: EntityManager, events: EventRow[]): Promise<void> {
    if (!events.length) return;
    const rows = events.map((r) => toStorableRow(r, ['payload']));
    await m.query(
      `INSERT INTO events (session_id, seq, iteration, type, payload, created_at, trace_id, span_id, originals)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::jsonb[], $6::timestamptz[], $7::text[], $8::text[], $9::text[])
       ON CONFLICT DO NOTHING`,
      [
        rows.map((r) => r.sessionId),
        rows.map((r) => r.seq),
        rows.map((r) => r.iteration),
        rows.map((r) => r.type),
        rows.map((r) => JSON.stringify(r.payload)),
        rows.map((r) => r.createdAt),
        rows.map((r) => r.traceId),
        rows.map((r) => r.spanId),
        rows.map((r) => r.originals),
      ],
    );
  }
}
