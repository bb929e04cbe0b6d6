import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import {
  EvalCellEntity,
  EvalExchangeEntity,
  EvalRunEntity,
  EvalTrialEntity,
  EventEntity,
  IterationEntity,
  MessageEntity,
  SessionEntity,
  ToolCallEntity,
} from '../database/entities';
import { batchStatement, tableRows, type BatchStatement, type TableSpec } from './batch-statement';
import type { JournalBatch } from './journal-entry';

/** A batch ready to write: its one statement, and the compactions that follow it in its transaction. */
export interface PreparedBatch {
  statement: BatchStatement | null;
  compactions: JournalBatch['compactions'];
}

const UNIQUE_VIOLATION = '23505';
/** invalid_sql_statement_name (26000: no such prepared statement), duplicate_prepared_statement (42P05) */
const PREPARED_STATEMENT_FAILURES = new Set(['26000', '42P05']);

@Injectable()
export class JournalRepository implements OnModuleInit {
  private specs?: Record<string, TableSpec>;
  private readonly logger = new Logger('JournalRepository');
  /** batch statements go as named prepared statements (see batch-statement.ts) until the connection shows it cannot keep them */
  named = true;

  constructor(private readonly dataSource: DataSource) {}

  /** The table specs are read from the entity metadata at start-up, not by a run's first write. */
  onModuleInit(): void {
    this.tableSpecs();
  }

  /**
   * Writes one batch atomically, as one statement (see batch-statement.ts): runs, sessions, trials,
   * cells, messages, iterations and tool calls upserted (the last snapshot wins), events appended.
   * Every field that can hold model or tool text is made storable, its exact value kept in `originals`.
   * Compactions mark messages that may be in this very batch, so they follow in the same transaction.
   */
  async writeBatch(batch: JournalBatch): Promise<void> {
    await this.write(this.prepare(batch));
  }

  /** The batch's statement, built (CPU work only: the journal builds the next batch's while one is written). */
  prepare(batch: JournalBatch): PreparedBatch {
    const t = this.tableSpecs();
    const statement = batchStatement([
      tableRows(t.evalRuns, batch.evalRuns, ['options', 'config']),
      tableRows(t.sessions, batch.sessions, ['prompt', 'error', 'config', 'model', 'workspace']),
      tableRows(t.evalTrials, batch.evalTrials, ['expectations', 'failedExpectations', 'error', 'scenarioTitle', 'metadata']),
      tableRows(t.evalCells, batch.evalCells, ['config', 'statistics']),
      tableRows(t.evalExchanges, batch.evalExchanges, ['request', 'chunks', 'error', 'model', 'path']),
      tableRows(t.messages, batch.messages, ['content', 'toolCalls', 'thinking', 'toolName', 'toolCallId']),
      tableRows(t.iterations, batch.iterations, ['finishReason', 'model']),
      tableRows(t.toolCalls, batch.toolCalls, ['id', 'name', 'arguments', 'result', 'error']),
      tableRows(t.events, batch.events, ['payload']),
    ]);
    return { statement, compactions: batch.compactions };
  }

  async write(prepared: PreparedBatch): Promise<void> {
    try {
      await this.run(prepared, false);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (this.named && code && PREPARED_STATEMENT_FAILURES.has(code)) {
        // a pooler between us and Postgres (PgBouncer in transaction mode) that does not keep a
        // connection's prepared statements: plain texts from now on, this batch included
        this.named = false;
        this.logger.warn(`prepared statements are not kept by this database connection (${code}); the journal sends plain statements`);
        return this.write(prepared);
      }
      // appended rows already there: an earlier attempt committed them and its answer was lost with
      // the connection. Written again, with what is there left alone (the statement failed whole).
      if (code !== UNIQUE_VIOLATION || !prepared.statement) throw e;
      await this.run(prepared, true);
    }
  }

  private async run({ statement, compactions }: PreparedBatch, idempotent: boolean): Promise<void> {
    const text = idempotent ? statement?.idempotentText : statement?.text;
    if (!compactions.length) {
      if (!statement || !text) return;
      // the driver's pool, for a named (prepared) statement: TypeORM's query() passes text only
      const name = !this.named ? undefined : idempotent ? statement.idempotentName : statement.name;
      await this.pool().query({ name, text, values: statement.values });
      return;
    }
    await this.dataSource.transaction(async (m) => {
      if (statement && text) await m.query(text, statement.values);
      await m.query(
        `UPDATE messages AS msg SET compacted_at = v.at
           FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS v(session_id, idx, at)
          WHERE msg.session_id = v.session_id AND msg.idx = v.idx`,
        [compactions.map((c) => c.sessionId), compactions.map((c) => c.idx), compactions.map((c) => c.compactedAt)],
      );
    });
  }

  private pool(): Pick<Pool, 'query'> {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /** Each table's columns and conflict key, read once from the entity metadata. */
  private tableSpecs(): Record<keyof Omit<JournalBatch, 'compactions'>, TableSpec> {
    if (this.specs) return this.specs as Record<keyof Omit<JournalBatch, 'compactions'>, TableSpec>;
    const spec = (entity: EntityTarget<ObjectLiteral>, onConflict: TableSpec['onConflict'], keys?: string[]): TableSpec => {
      const meta = this.dataSource.getMetadata(entity);
      return {
        table: meta.tableName,
        columns: meta.columns
          .filter((c) => !c.isGenerated)
          // an array column is named as one (`text[]`), which the batch statement refuses
          .map((c) => ({ name: c.databaseName, prop: c.propertyName, type: `${String(c.type)}${c.isArray ? '[]' : ''}` })),
        keys: keys ?? meta.primaryColumns.map((c) => c.databaseName),
        onConflict,
      };
    };
    this.specs = {
      evalRuns: spec(EvalRunEntity, 'update'),
      sessions: spec(SessionEntity, 'update'),
      evalTrials: spec(EvalTrialEntity, 'update'),
      evalCells: spec(EvalCellEntity, 'update'),
      evalExchanges: spec(EvalExchangeEntity, 'update'),
      messages: spec(MessageEntity, 'update'),
      iterations: spec(IterationEntity, 'update'),
      toolCalls: spec(ToolCallEntity, 'update'),
      // a retried batch may hold events an earlier attempt already committed: (session_id, seq) is their key
      events: spec(EventEntity, 'nothing', ['session_id', 'seq']),
    };
    return this.specs as Record<keyof Omit<JournalBatch, 'compactions'>, TableSpec>;
  }
}
