// The recorded rows the API returns, mapped at the boundary into plain JSON objects holding exactly
// the columns its document declares (entity-schemas.ts reads the same column list, with the same
// hidden ones). A service may hand over an entity instance or a row with storage bookkeeping
// (`originals`) or a field of its own: what leaves the API is the documented row, not the entity.
import { getMetadataArgsStorage } from 'typeorm';
import {
  EvalCellEntity,
  EvalRunEntity,
  EvalTrialEntity,
  EventEntity,
  IterationEntity,
  MessageEntity,
  SessionEntity,
  ToolCallEntity,
} from '../../../database/entities';
import type { RunDetail } from '../../../eval/eval-runs.service';
import type { SessionListItem, SessionPage } from '../../../journal/session-query.repository';
import type { SessionView } from '../../../sessions/sessions.service';

/** what the document leaves out of every row (entity-schemas.ts) */
export const HIDDEN_COLUMNS: ReadonlySet<string> = new Set(['originals']);

/** A row as the API returns it: the entity's documented columns, as data. */
export type ApiRow<E> = Omit<{ [K in keyof E as E[K] extends (...args: never[]) => unknown ? never : K]: E[K] }, 'originals'>;

type EntityClass = abstract new (...args: never[]) => object;

const columnsByEntity = new Map<EntityClass, string[]>();

/** The documented columns of `entity`, in declaration order. */
export function apiColumns(entity: EntityClass): string[] {
  let columns = columnsByEntity.get(entity);
  if (!columns) {
    columns = getMetadataArgsStorage()
      .filterColumns(entity)
      .map((c) => c.propertyName)
      .filter((name) => !HIDDEN_COLUMNS.has(name));
    columnsByEntity.set(entity, columns);
  }
  return columns;
}

/** `row`'s documented columns, copied into a plain object; anything else on it stays behind. */
export function apiRow<E extends object>(entity: abstract new (...args: never[]) => E, row: Partial<ApiRow<E>>): ApiRow<E> {
  const out: Record<string, unknown> = {};
  for (const name of apiColumns(entity)) if (name in row) out[name] = (row as Record<string, unknown>)[name];
  return out as ApiRow<E>;
}

export type SessionListItemResponse = ApiRow<SessionEntity> &
  Pick<SessionListItem, 'prompt' | 'promptTruncated' | 'profile' | 'durationMs' | 'trial'>;

export interface SessionPageResponse extends Omit<SessionPage, 'items'> {
  items: SessionListItemResponse[];
}

export interface SessionViewResponse extends Omit<SessionView, 'session' | 'messages' | 'iterations' | 'toolCalls' | 'events'> {
  session: ApiRow<SessionEntity>;
  messages: Array<ApiRow<MessageEntity>>;
  iterations: Array<ApiRow<IterationEntity> & { traceUrl: string | null }>;
  toolCalls: Array<ApiRow<ToolCallEntity>>;
  events: Array<ApiRow<EventEntity>>;
}

export interface RunDetailResponse {
  run: ApiRow<EvalRunEntity>;
  cells: Array<ApiRow<EvalCellEntity>>;
  trials: Array<ApiRow<EvalTrialEntity>>;
}

export function sessionPageResponse(page: SessionPage): SessionPageResponse {
  return {
    ...page,
    items: page.items.map((s) => ({
      ...apiRow(SessionEntity, s),
      prompt: s.prompt,
      promptTruncated: s.promptTruncated,
      profile: s.profile,
      durationMs: s.durationMs,
      trial: s.trial,
    })),
  };
}

export function sessionViewResponse(view: SessionView): SessionViewResponse {
  return {
    ...view,
    session: apiRow(SessionEntity, view.session),
    messages: view.messages.map((m) => apiRow(MessageEntity, m)),
    iterations: view.iterations.map((i) => ({ ...apiRow(IterationEntity, i), traceUrl: i.traceUrl })),
    toolCalls: view.toolCalls.map((c) => apiRow(ToolCallEntity, c)),
    events: view.events.map((e) => apiRow(EventEntity, e)),
  };
}

export function runDetailResponse(detail: RunDetail): RunDetailResponse {
  return {
    run: apiRow(EvalRunEntity, detail.run),
    cells: detail.cells.map((c) => apiRow(EvalCellEntity, c)),
    trials: detail.trials.map((t) => apiRow(EvalTrialEntity, t)),
  };
}
