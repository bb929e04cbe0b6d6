// What a WebSocket client may send, checked before anything acts on it; a bad payload is answered
// with the fields at fault, as the REST API answers a 400. Both gateways answer through
// answerClientMessage: checked, acted on, and any error mapped as the REST API maps it.
import { z } from 'zod';
import { mapError } from '../admin/http/error-mapping';
import type { FieldError } from '../common/request-errors';
import { fieldErrors } from '../common/validation-issues';

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

export const CLIENT_MESSAGES = {
  /**
   * receive a session's journal events, live, after `afterSeq` (default: from its first event); with
   * `afterMessageIdx` (the last message the client has, -1 for none), messages after it are read back
   * first and then come in order, so none is lost between a read of the session and this subscribe
   */
  'session:subscribe': z.strictObject({
    sessionId: uuid,
    afterSeq: z.number().int().min(-1).optional(),
    afterMessageIdx: z.number().int().min(-1).optional(),
    /** live ticks as one session:batch each (fewer, larger messages) rather than event by event */
    batch: z.boolean().optional(),
  }),
  /** stop receiving a session's events (its slot under the per-connection cap is freed) */
  'session:unsubscribe': z.strictObject({ sessionId: uuid }),
  /** every session's row as it changes (the viewer's list) */
  'sessions:subscribe': z.strictObject({}),
  /** stop following the session list */
  'sessions:unsubscribe': z.strictObject({}),
  /** an eval run's trials and progress, live (answered once everything recorded before is readable) */
  'run:subscribe': z.strictObject({ runId: uuid }),
  'run:unsubscribe': z.strictObject({ runId: uuid }),
  /** every eval run's list row as it changes (the viewer's runs list) */
  'runs:subscribe': z.strictObject({}),
  'runs:unsubscribe': z.strictObject({}),
  'tool:approval': z.strictObject({ callId: z.string().min(1).max(200), approved: z.boolean(), reason: z.string().max(2000).optional() }),
  /** into a running session; without sessionId, starts a session with the connection's model */
  message: z.strictObject({ sessionId: uuid.optional(), text: z.string().min(1).max(1_000_000) }),
};

export type ClientMessage = keyof typeof CLIENT_MESSAGES;
export type ClientPayload<K extends ClientMessage> = z.infer<(typeof CLIENT_MESSAGES)[K]>;

export function parseClientMessage<K extends ClientMessage>(
  kind: K,
  body: unknown,
): { ok: true; value: ClientPayload<K> } | { ok: false; errors: FieldError[] } {
  const parsed = CLIENT_MESSAGES[kind].safeParse(body ?? {});
  return parsed.success ? { ok: true, value: parsed.data as ClientPayload<K> } : { ok: false, errors: fieldErrors(parsed.error.issues) };
}

/** What a client message is answered with (its acknowledgement). */
export type Answer = Record<string, unknown>;

/**
 * Checks a client message, acts on it and answers: 400 with the fields at fault, what `act` answers,
 * or its error mapped as over HTTP ({ ok: false, status, … }; an unexpected one is logged).
 */
export async function answerClientMessage<K extends ClientMessage>(
  kind: K,
  body: unknown,
  act: (payload: ClientPayload<K>) => Promise<Answer>,
  opts: { maxBodyBytes: number; logError: (message: string) => void },
): Promise<Answer> {
  const parsed = parseClientMessage(kind, body);
  if (!parsed.ok) return { ok: false, status: 400, message: `invalid ${kind}`, errors: parsed.errors };
  try {
    return await act(parsed.value);
  } catch (e) {
    const mapped = mapError(e, { maxBodyBytes: opts.maxBodyBytes });
    if (mapped.unexpected) opts.logError(`${kind} failed: ${(e as Error)?.stack ?? e}`);
    const { statusCode, ...rest } = mapped.body;
    return { ok: false, status: statusCode, ...rest };
  }
}
