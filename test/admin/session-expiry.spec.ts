// covers: mcp-agent-technical-spec#error-expired-session
// mcp-agent-technical-spec.md §4, "Expired Session": JanitorService (cron), "Container is pruned,
// history remains". Against the real app (HTTP, WebSocket, Postgres, a scripted stand-in per session)
// with a short idle limit: a session waiting on a person, and one stuck in a long command, are expired
// — their approval, command and servers released, their history kept — and a later message or
// approval is told the session expired (410), over HTTP and over the WebSocket.
import { filter, firstValueFrom, ReplaySubject } from 'rxjs';
import { ApprovalService } from '../../src/approval/approval.service';
import type { JournalEntry } from '../../src/journal/journal-entry';
import { JournalService } from '../../src/journal/journal.service';
import { SessionJanitor } from '../../src/sessions/session-janitor.service';
import { APPROVAL_SESSION, expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

type EventEntry = Extract<JournalEntry, { kind: 'event' }>;

interface Detail {
  session: { id: string; status: string; terminationReason: string | null };
  live: boolean;
  pendingApprovals: unknown[];
  messages: Array<{ kind: string; content: string }>;
  events: Array<{ type: string; payload: Record<string, unknown> }>;
  toolCalls: Array<{ name: string; status: string }>;
}

const IDLE_MS = 1_000;

describe('idle sessions expire (the janitor)', () => {
  let a: ApiApp;
  /** every session event since the app started, replayed to each waiter */
  const events = new ReplaySubject<EventEntry>();
  const clients: LiveClient[] = [];

  const eventOf = (sessionId: string, type: string, payload: Record<string, unknown> = {}) =>
    firstValueFrom(
      events.pipe(
        filter(
          (e) =>
            e.row.sessionId === sessionId &&
            e.row.type === type &&
            Object.entries(payload).every(([k, v]) => (e.row.payload as Record<string, unknown>)[k] === v),
        ),
      ),
    );
  /** the session's rows as Postgres has them, once what was journaled is written */
  const detail = async (id: string) => {
    await a.app.get(JournalService).flush();
    return expectJson<Detail>(await a.call('GET', `/api/sessions/${id}`), 200);
  };

  beforeAll(async () => {
    a = await startApiApp({ LOUPE_SESSION_IDLE_TIMEOUT_MS: String(IDLE_MS) });
    a.app.get(JournalService).entries$.subscribe((e) => {
      if (e.kind === 'event') events.next(e);
    });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await a?.close();
  });

  it('expires a session waiting on an approval: approval dropped, history kept, later decisions and messages get 410', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', APPROVAL_SESSION), 201);
    const asked = await eventOf(sessionId, 'approval_requested');
    const callId = String((asked.row.payload as Record<string, unknown>).callId);

    const expired = await eventOf(sessionId, 'session_expired');
    expect(expired.row.payload).toEqual({ idleMs: expect.any(Number), idleTimeoutMs: IDLE_MS, phase: 'iteration' });
    expect((expired.row.payload as Record<string, unknown>).idleMs).toBeGreaterThanOrEqual(IDLE_MS);
    const finished = await eventOf(sessionId, 'session_finished');
    expect(finished.row.payload).toMatchObject({ reason: 'expired', exitCode: 0 });
    // the waiting call was settled by the session's end, not left pending
    expect(a.app.get(ApprovalService).pending(sessionId)).toEqual([]);
    expect(a.app.get(SessionJanitor).expired(sessionId)).toBe(true);

    // history remains (Postgres), nothing waits any more
    const view = await detail(sessionId);
    expect(view.session).toMatchObject({ status: 'finished', terminationReason: 'expired' });
    expect(view.live).toBe(false);
    expect(view.pendingApprovals).toEqual([]);
    expect(view.messages.map((m) => m.kind)).toEqual(expect.arrayContaining(['system', 'prompt', 'assistant', 'tool_result']));
    expect(view.messages.find((m) => m.kind === 'prompt')?.content).toBe(APPROVAL_SESSION.prompt);
    expect(view.toolCalls.map((c) => c.name)).toEqual(['read_file', 'write_file']);

    // a late approval and a late message: 410 through the one error mapping, naming the session
    const late = await expectJson<{ statusCode: number; error: string; message: string; sessionId: string }>(
      await a.call('POST', `/api/approvals/${callId}`, { approved: true }),
      410,
    );
    expect(late).toMatchObject({ statusCode: 410, error: 'Gone', sessionId, message: expect.stringMatching(/expired/) });
    const message = await expectJson<{ message: string; sessionId: string }>(
      await a.call('POST', `/api/sessions/${sessionId}/messages`, { text: 'go on' }),
      410,
    );
    expect(message).toMatchObject({ sessionId, message: expect.stringMatching(/has expired.*history is kept/) });

    // the same over the WebSocket
    const c = new LiveClient(a.base);
    clients.push(c);
    await c.connected();
    expect(await c.ask('tool:approval', { callId, approved: true })).toMatchObject({ ok: false, status: 410, sessionId });
    expect(c.of('error')).toEqual([expect.objectContaining({ code: 'session_expired', callId, sessionId })]);
    expect(await c.ask('message', { sessionId, text: 'go on' })).toMatchObject({
      ok: false,
      status: 410,
      message: expect.stringMatching(/has expired/),
    });
  });

  it('expires a session silent in a long command: the command is stopped and its call closed as aborted', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(
      await a.call('POST', '/api/sessions', {
        prompt: 'Wait for the build.',
        tools: ['execute_command'],
        script: [{ tool_calls: [{ name: 'execute_command', arguments: { command: 'sleep 60' } }] }, { content: 'Never requested.' }],
      }),
      201,
    );
    await eventOf(sessionId, 'tool_call');
    const expired = await eventOf(sessionId, 'session_expired');
    expect(expired.row.payload).toMatchObject({ idleTimeoutMs: IDLE_MS, phase: 'iteration' });
    expect((await eventOf(sessionId, 'session_finished')).row.payload).toMatchObject({ reason: 'expired' });
    const view = await detail(sessionId);
    expect(view.session.terminationReason).toBe('expired');
    expect(view.toolCalls).toEqual([expect.objectContaining({ name: 'execute_command', status: 'aborted' })]);
  });

  it('leaves a session that keeps recording alone, and stops watching it when it ends', async () => {
    const { sessionId } = await expectJson<{ sessionId: string }>(
      await a.call('POST', '/api/sessions', { prompt: 'Say hi.', script: [{ content: 'Hi.' }] }),
      201,
    );
    expect((await eventOf(sessionId, 'session_finished')).row.payload).toMatchObject({ reason: 'completed' });
    const janitor = a.app.get(SessionJanitor);
    // a sweep far in the future finds nothing to expire: the finished session is no longer watched
    expect(janitor.sweep(Date.now() + 10 * IDLE_MS).map((e) => e.sessionId)).not.toContain(sessionId);
    expect(janitor.expired(sessionId)).toBe(false);
  });
});
