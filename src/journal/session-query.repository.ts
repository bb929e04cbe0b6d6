import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { EventEntity, IterationEntity, MessageEntity, SessionEntity, ToolCallEntity } from '../database/entities';

export interface SessionDetail {
  session: SessionEntity;
  messages: MessageEntity[];
  iterations: IterationEntity[];
  toolCalls: ToolCallEntity[];
  events: EventEntity[];
}

/** Read side of what the journal recorded (CLI, admin API, eval assertions). */
@Injectable()
export class SessionQueryRepository {
  constructor(private readonly dataSource: DataSource) {}

  listSessions(limit = 50, offset = 0): Promise<SessionEntity[]> {
    return this.dataSource.getRepository(SessionEntity).find({ order: { startedAt: 'DESC' }, take: limit, skip: offset });
  }

  getSession(id: string): Promise<SessionEntity | null> {
    return this.dataSource.getRepository(SessionEntity).findOne({ where: { id } });
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
    return { session, messages, iterations, toolCalls, events };
  }

  events(sessionId: string): Promise<EventEntity[]> {
    return this.dataSource.getRepository(EventEntity).find({ where: { sessionId }, order: { seq: 'ASC' } });
  }

  /** Host-level events (model pulls and deletes), newest first. */
  hostEvents(limit = 100): Promise<EventEntity[]> {
    return this.dataSource.getRepository(EventEntity).find({ where: { sessionId: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  countEvents(sessionId: string): Promise<number> {
    return this.dataSource.getRepository(EventEntity).count({ where: { sessionId } });
  }
}
