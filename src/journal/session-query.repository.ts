import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, MoreThan } from 'typeorm';
import { EvalTrialEntity, EventEntity, IterationEntity, MessageEntity, SessionEntity, ToolCallEntity } from '../database/entities';
import { readRecordedPayload } from './journal-events';
import { restoreOriginals } from './storable-text';

/** A row as it was recorded: values Postgres could only store in readable form are exact again. */
export type Recorded<T> = Omit<T, 'originals'>;

/** An event row as recorded, its payload under today's field names (readRecordedPayload). */
function recordedEvent(row: EventEntity): Recorded<EventEntity> {
  const event = restoreOriginals(row);
  return { ...event, payload: readRecordedPayload(event.type, event.payload) };
}

export interface SessionDetail {
  session: Recorded<SessionEntity>;
  messages: Array<Recorded<MessageEntity>>;
  iterations: Array<Recorded<IterationEntity>>;
  toolCalls: Array<Recorded<ToolCallEntity>>;
  events: Array<Recorded<EventEntity>>;
}

/** A trial's verdict as a session list shows it; `none` filters for sessions that are no trial. */
export const SESSION_VERDICTS = ['passed', 'failed', 'unjudged', 'error', 'running', 'interrupted', 'none'] as const;
export type SessionVerdictFilter = (typeof SESSION_VERDICTS)[number];

/** What a session list may be narrowed to (every field optional; all given ones must hold). */
export interface SessionFilter {
  model?: string;
  status?: string;
  terminationReason?: string;
  /** sessions of this eval run's trials */
  runId?: string;
  startedFrom?: Date;
  startedTo?: Date;
  /** part of the trial's scenario id or title (case-insensitive) */
  scenario?: string;
  /** part of the session's prompt (case-insensitive) */
  prompt?: string;
  /** the loop profile it ran under */
  profile?: string;
  /** its trial's status, or `none` for sessions that are no trial */
  verdict?: SessionVerdictFilter;
  minIterations?: number;
  maxIterations?: number;
  /** finished sessions whose start-to-finish time is within the bounds (ms) */
  minDurationMs?: number;
  maxDurationMs?: number;
  limit: number;
  offset: number;
}

/** The trial a session ran for, as a list row names it. */
export interface SessionTrialSummary {
  id: string;
  runId: string;
  scenarioId: string;
  scenarioTitle: string;
  model: string;
  configKey: string;
  trialIndex: number;
  status: string;
}

/** A session row with what a list shows beside it: its trial, profile and duration, and its prompt cut short. */
export type SessionListItem = Omit<Recorded<SessionEntity>, 'prompt'> & {
  /** the first PROMPT_PREVIEW characters */
  prompt: string;
  promptTruncated: boolean;
  profile: string | null;
  /** start to finish (null while it runs) */
  durationMs: number | null;
  trial: SessionTrialSummary | null;
};

export interface SessionPage {
  items: SessionListItem[];
  total: number;
  limit: number;
  offset: number;
}

const PROMPT_PREVIEW = 300;

/** `text` for ILIKE as a literal part of a value: its wildcards escaped */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Read side of what the journal recorded (CLI, admin API, eval assertions). */
@Injectable()
export class SessionQueryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async listSessions(limit = 50, offset = 0): Promise<Array<Recorded<SessionEntity>>> {
    const rows = await this.dataSource.getRepository(SessionEntity).find({ order: { startedAt: 'DESC' }, take: limit, skip: offset });
    return rows.map(restoreOriginals);
  }

  /** Newest first, with the total that match (for paging); each row with its trial, profile and duration. */
  async findSessions(f: SessionFilter): Promise<SessionPage> {
    const q = this.dataSource.getRepository(SessionEntity).createQueryBuilder('s').leftJoin(EvalTrialEntity, 't', 't.id = s.trial_id');
    if (f.model !== undefined) q.andWhere('s.model = :model', { model: f.model });
    if (f.status !== undefined) q.andWhere('s.status = :status', { status: f.status });
    if (f.terminationReason !== undefined) q.andWhere('s.termination_reason = :reason', { reason: f.terminationReason });
    if (f.startedFrom) q.andWhere('s.started_at >= :from', { from: f.startedFrom });
    if (f.startedTo) q.andWhere('s.started_at < :to', { to: f.startedTo });
    if (f.runId !== undefined) q.andWhere('t.run_id = :runId', { runId: f.runId });
    if (f.scenario !== undefined) {
      q.andWhere(`(t.scenario_id ILIKE :scenario OR t.scenario_title ILIKE :scenario)`, { scenario: contains(f.scenario) });
    }
    if (f.prompt !== undefined) q.andWhere('s.prompt ILIKE :prompt', { prompt: contains(f.prompt) });
    if (f.profile !== undefined) q.andWhere(`s.config->>'profile' = :profile`, { profile: f.profile });
    if (f.verdict === 'none') q.andWhere('t.id IS NULL');
    else if (f.verdict !== undefined) q.andWhere('t.status = :verdict', { verdict: f.verdict });
    if (f.minIterations !== undefined) q.andWhere('s.iterations >= :minIt', { minIt: f.minIterations });
    if (f.maxIterations !== undefined) q.andWhere('s.iterations <= :maxIt', { maxIt: f.maxIterations });
    const took = 'EXTRACT(EPOCH FROM (s.finished_at - s.started_at)) * 1000';
    if (f.minDurationMs !== undefined) q.andWhere(`${took} >= :minMs`, { minMs: f.minDurationMs });
    if (f.maxDurationMs !== undefined) q.andWhere(`${took} <= :maxMs`, { maxMs: f.maxDurationMs });
    // the join is to at most one trial per session: plain LIMIT/OFFSET pages it (take/skip would wrap it in a DISTINCT query)
    const [rows, total] = await q
      .orderBy('s.started_at', 'DESC')
      .addOrderBy('s.id', 'ASC')
      .limit(f.limit)
      .offset(f.offset)
      .getManyAndCount();
    const trialIds = rows.flatMap((r) => (r.trialId ? [r.trialId] : []));
    const trials = trialIds.length ? await this.dataSource.getRepository(EvalTrialEntity).find({ where: { id: In(trialIds) } }) : [];
    const byId = new Map(trials.map((t) => [t.id, t]));
    return { items: rows.map((r) => listItem(restoreOriginals(r), byId.get(r.trialId ?? ''))), total, limit: f.limit, offset: f.offset };
  }

  /** The trial a session ran for (null: it is no trial, or its row is not written yet). */
  async trialOf(trialId: string): Promise<Recorded<EvalTrialEntity> | null> {
    const row = await this.dataSource.getRepository(EvalTrialEntity).findOne({ where: { id: trialId } });
    return row && restoreOriginals(row);
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
    return rows.map(recordedEvent);
  }

  /** A session's events with seq above `afterSeq`, in order, at most `limit` (the live feed's backfill). */
  async eventsAfter(sessionId: string, afterSeq: number, limit: number): Promise<Array<Recorded<EventEntity>>> {
    const rows = await this.dataSource
      .getRepository(EventEntity)
      .find({ where: { sessionId, seq: MoreThan(afterSeq) }, order: { seq: 'ASC' }, take: limit });
    return rows.map(recordedEvent);
  }

  /** A session's messages with idx above `afterIdx`, in order, at most `limit` (the live feed's backfill). */
  async messagesAfter(sessionId: string, afterIdx: number, limit: number): Promise<Array<Recorded<MessageEntity>>> {
    const rows = await this.dataSource
      .getRepository(MessageEntity)
      .find({ where: { sessionId, idx: MoreThan(afterIdx) }, order: { idx: 'ASC' }, take: limit });
    return rows.map(restoreOriginals);
  }

  /** Host-level events (model pulls and deletes, database restarts, refused entries), newest first. */
  async hostEvents(limit = 100): Promise<Array<Recorded<EventEntity>>> {
    const rows = await this.dataSource
      .getRepository(EventEntity)
      .find({ where: { sessionId: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    return rows.map(recordedEvent);
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

function listItem(s: Recorded<SessionEntity>, t: EvalTrialEntity | undefined): SessionListItem {
  const profile = s.config?.profile;
  return {
    ...s,
    prompt: s.prompt.slice(0, PROMPT_PREVIEW),
    promptTruncated: s.prompt.length > PROMPT_PREVIEW,
    profile: typeof profile === 'string' ? profile : null,
    durationMs: s.finishedAt ? new Date(s.finishedAt).getTime() - new Date(s.startedAt).getTime() : null,
    trial: t
      ? {
          id: t.id,
          runId: t.runId,
          scenarioId: t.scenarioId,
          scenarioTitle: t.scenarioTitle,
          model: t.model,
          configKey: t.configKey,
          trialIndex: t.trialIndex,
          status: t.status,
        }
      : null,
  };
}
