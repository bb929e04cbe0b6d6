import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { EvalTrialEntity, EventEntity, IterationEntity, MessageEntity, SessionEntity, ToolCallEntity } from '../database/entities';
import { restoreOriginals } from './storable-text';

/** A row as it was recorded: values Postgres could only store in readable form are exact again. */
export type Recorded<T> = Omit<T, 'originals'>;

export interface SessionDetail {
  session: Recorded<SessionEntity>;
  messages: Array<Recorded<MessageEntity>>;
  iterations: Array<Recorded<IterationEntity>>;
  toolCalls: Array<Recorded<ToolCallEntity>>;
  events: Array<Recorded<EventEntity>>;
}

/** What a session list may be narrowed to (every field optional; all given ones must hold). */
export interface SessionFilter {
  model?: string;
  status?: string;
  terminationReason?: string;
  /** sessions of this eval run's trials */
  runId?: string;
  startedFrom?: Date;
  startedTo?: Date;
  limit: number;
  offset: number;
}

export interface SessionPage {
  items: Array<Recorded<SessionEntity>>;
  total: number;
  limit: number;
  offset: number;
}

/** Read side of what the journal recorded (CLI, admin API, eval assertions). */
@Injectable()
export class SessionQueryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async listSessions(limit = 50, offset = 0): Promise<Array<Recorded<SessionEntity>>> {
    const rows = await this.dataSource.getRepository(SessionEntity).find({ order: { startedAt: 'DESC' }, take: limit, skip: offset });
    return rows.map(restoreOriginals);
  }

  /** Newest first, with the total that match (for paging). */
  async findSessions(f: SessionFilter): Promise<SessionPage> {
    const q = this.dataSource.getRepository(SessionEntity).createQueryBuilder('s');
    if (f.model !== undefined) q.andWhere('s.model = :model', { model: f.model });
    if (f.status !== undefined) q.andWhere('s.status = :status', { status: f.status });
    if (f.terminationReason !== undefined) q.andWhere('s.termination_reason = :reason', { reason: f.terminationReason });
    if (f.startedFrom) q.andWhere('s.started_at >= :from', { from: f.startedFrom });
    if (f.startedTo) q.andWhere('s.started_at < :to', { to: f.startedTo });
    if (f.runId !== undefined) {
      q.andWhere(`s.trial_id IN ${q.subQuery().select('t.id').from(EvalTrialEntity, 't').where('t.run_id = :runId').getQuery()}`, {
        runId: f.runId,
      });
    }
    const [rows, total] = await q.orderBy('s.started_at', 'DESC').addOrderBy('s.id', 'ASC').take(f.limit).skip(f.offset).getManyAndCount();
    return { items: rows.map(restoreOriginals), total, limit: f.limit, offset: f.offset };
  }

  async getSession(id: string): Promise<Recorded<SessionEntity> | null> {
    const row = await this.dataSource.getRepository(SessionEntity).findOne({ where: { id } });
    return row && restoreOriginals(row);
  }

  async getSessionDetail(id: string): Promise<SessionDetail | null> {
    const session = await this.getSession(id);
    if (!session) return null;
    const [messages, iterations, toolCalls, events] = await Promise.all([
      this.dataSource.getRepository(MessageEntity).find({ where: { sessionId: id }, order: { idx: 'ASC' } }),
      this.dataSource.getRepository(IterationEntity).find({ where: { sessionId: id }, order: { idx: 'ASC' } }),
      this.dataSource.getRepository(ToolCallEntity).find({ where: { sessionId: id }, order: { createdAt: 'ASC' } }),
      this.events(id),
    ]);
    return {
      session,
      messages: messages.map(restoreOriginals),
      iterations: iterations.map(restoreOriginals),
      toolCalls: toolCalls.map(restoreOriginals),
      events,
    };
  }

  async events(sessionId: string): Promise<Array<Recorded<EventEntity>>> {
    const rows = await this.dataSource.getRepository(EventEntity).find({ where: { sessionId }, order: { seq: 'ASC' } });
    return rows.map(restoreOriginals);
  }

  /** A session's events with seq above `afterSeq`, in order, at most `limit` (the live feed's backfill). */
  async eventsAfter(sessionId: string, afterSeq: number, limit: number): Promise<Array<Recorded<EventEntity>>> {
    const rows = await this.dataSource
      .getRepository(EventEntity)
      .find({ where: { sessionId, seq: MoreThan(afterSeq) }, order: { seq: 'ASC' }, take: limit });
    return rows.map(restoreOriginals);
  }

  /** Host-level events (model pulls and deletes, database restarts, refused entries), newest first. */
  async hostEvents(limit = 100): Promise<Array<Recorded<EventEntity>>> {
    const rows = await this.dataSource
      .getRepository(EventEntity)
      .find({ where: { sessionId: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    return rows.map(restoreOriginals);
  }

  /** Events stored per session, for the sessions given (absent: none stored). */
  async eventCounts(sessionIds: readonly string[]): Promise<Map<string, number>> {
    if (!sessionIds.length) return new Map();
    const rows: Array<{ session_id: string; n: number }> = await this.dataSource.query(
      `SELECT session_id, count(*)::int AS n FROM events WHERE session_id = ANY($1::uuid[]) GROUP BY session_id`,
      [sessionIds],
    );
    return new Map(rows.map((r) => [r.session_id, r.n]));
  }

  countEvents(sessionId: string): Promise<number> {
    return this.dataSource.getRepository(EventEntity).count({ where: { sessionId } });
  }
}
