import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { EventEntity, IterationEntity, MessageEntity, SessionEntity, ToolCallEntity } from '../database/entities';
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

/** Read side of what the journal recorded (CLI, admin API, eval assertions). */
@Injectable()
export class SessionQueryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async listSessions(limit = 50, offset = 0): Promise<Array<Recorded<SessionEntity>>> {
    const rows = await this.dataSource.getRepository(SessionEntity).find({ order: { startedAt: 'DESC' }, take: limit, skip: offset });
    return rows.map(restoreOriginals);
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
