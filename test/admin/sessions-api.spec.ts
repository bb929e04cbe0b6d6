// The admin API for sessions and approvals over real HTTP, with the real modules, Postgres and a
// scripted stand-in per session: start, list with filters, read back, a message mid-loop, a kill,
// the approval queue; every route refuses a missing or wrong token, and bad input is named by field.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { holdsRootIdentity } from '../../src/tools/workspace/workspace-root';
import { waitUntil } from '../support/wait';
import { APPROVAL_SESSION, eventually, startApiApp, type ApiApp, expectJson } from '../support/api-app';

interface Page {
  items: Array<{ id: string; model: string; status: string; terminationReason: string | null }>;
  total: number;
}
interface Detail {
  session: { id: string; status: string; terminationReason: string | null; config: Record<string, unknown> };
  live: boolean;
  pendingApprovals: Array<{ callId: string; name: string; queuePosition: number; totalInQueue: number }>;
  messages: Array<{ role: string; kind: string; content: string }>;
  events: Array<{ type: string; seq: number; payload: Record<string, unknown> }>;
  toolCalls: Array<{ name: string; status: string }>;
  iterations: unknown[];
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('admin API: sessions and approvals', () => {
  let a: ApiApp;
  const detail = async (id: string) => expectJson<Detail>(await a.call('GET', `/api/sessions/${id}`), 200);
  const pendingOf = (id: string) =>
    eventually(async () => {
      const d = await detail(id);
      return d.pendingApprovals.length ? d.pendingApprovals[0] : undefined;
    }, 'an approval request');
  const finished = (id: string) =>
    eventually(async () => {
      const d = await detail(id);
      return d.session.status === 'finished' && d.events.some((e) => e.type === 'session_finished') ? d : undefined;
    }, `session ${id} to finish`);

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it.each([
    ['POST', '/api/sessions'],
    ['GET', '/api/sessions'],
    ['GET', `/api/sessions/${UNKNOWN}`],
    ['POST', `/api/sessions/${UNKNOWN}/messages`],
    ['POST', `/api/sessions/${UNKNOWN}/kill`],
    ['GET', '/api/approvals'],
    ['POST', '/api/approvals/call_x'],
    ['GET', '/ready'],
    ['GET', '/api/docs-json'],
  ])('%s %s refuses a missing or wrong bearer token (401, the error shape)', async (method, route) => {
    for (const token of [null, 'wrong']) {
      const res = await a.call(method, route, method === 'POST' ? {} : undefined, token);
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: expect.stringMatching(/bearer token/),
        correlationId: expect.any(String),
      });
      expect(res.headers.get('x-correlation-id')).toBe(body.correlationId);
    }
  });

  it('answers 400 naming each bad field: body, options, files, script, params and queries', async () => {
    const body = await expectJson<{ errors: Array<{ field: string }>; message: string }>(
      await a.call('POST', '/api/sessions', {
        prompt: '',
        profile: 'nope',
        tools: 'read_file',
        permissions: { default: 'maybe' },
        extra: 1,
      }),
      400,
    );
    expect(body.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['prompt', 'profile', 'tools', 'permissions.default', 'extra']));
    const deep = await expectJson<{ errors: Array<{ field: string; message: string }>; message: string }>(
      await a.call('POST', '/api/sessions', {
        prompt: 'x',
        options: { max_tool_iterations: 0, max_tool_iteration: 3 },
        files: { '../outside.txt': 'x' },
        script: [{ tool_calls: 'write_file' }],
      }),
      400,
    );
    expect(deep.message).toBe('invalid session request');
    expect(deep.errors).toEqual(
      expect.arrayContaining([
        { field: 'options.max_tool_iterations', message: expect.any(String) },
        { field: 'options.max_tool_iteration', message: 'unknown field' },
        { field: 'files.../outside.txt', message: 'leaves the workspace (..)' },
        { field: 'script.0.tool_calls', message: expect.any(String) },
      ]),
    );
    expect((await expectJson<{ errors: unknown[] }>(await a.call('POST', '/api/sessions', { prompt: 'x' }), 400)).errors).toEqual([
      { field: 'model', message: expect.stringContaining('required') },
    ]);
    expect((await expectJson<{ errors: unknown[] }>(await a.call('GET', '/api/sessions/not-a-uuid'), 400)).errors).toEqual([
      { field: 'id', message: 'must be a UUID' },
    ]);
    const query = await expectJson<{ errors: Array<{ field: string }> }>(
      await a.call('GET', '/api/sessions?limit=0&status=done&run=x&from=yesterday&colour=red&termination=finished'),
      400,
    );
    expect(query.errors.map((e) => e.field).sort()).toEqual(['colour', 'from', 'limit', 'run', 'status', 'termination']);
    const message = await expectJson<{ errors: unknown[] }>(await a.call('POST', `/api/sessions/${UNKNOWN}/messages`, { text: 7 }), 400);
    expect(message.errors).toEqual(expect.arrayContaining([{ field: 'text', message: 'must be a string' }]));
    const decide = await expectJson<{ errors: unknown[] }>(await a.call('POST', '/api/approvals/call_x', { approved: 'yes' }), 400);
    expect(decide.errors).toEqual([{ field: 'approved', message: 'must be a boolean value' }]);
    expect((await expectJson<{ errors: unknown[] }>(await a.call('GET', '/api/approvals?session=x'), 400)).errors).toEqual([
      { field: 'session', message: 'must be a UUID' },
    ]);
    expect(
      (
        await expectJson<{ errors: unknown[] }>(
          await a.call('POST', '/api/sessions', { prompt: 'x', model: 'm', mcpServers: ['nosuch'] }),
          400,
        )
      ).errors,
    ).toEqual([{ field: 'mcpServers', message: 'no MCP server registered as nosuch' }]);
  });

  it('refuses malformed JSON (400) and bodies over the limit (413), and echoes a given correlation id', async () => {
    expect((await a.call('POST', '/api/sessions', '{"prompt":')).status).toBe(400);
    const big = await a.call('POST', '/api/sessions', { prompt: 'x'.repeat(a.config.api.maxBodyBytes + 1) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual(
      expect.objectContaining({ message: `request body too large (limit ${a.config.api.maxBodyBytes} bytes)` }),
    );
    const res = await fetch(`${a.base}/api/sessions/nope`, {
      headers: { authorization: 'Bearer loupe-api-test-token', 'x-correlation-id': 'trace-me-42' },
    });
    expect(res.headers.get('x-correlation-id')).toBe('trace-me-42');
    expect(((await res.json()) as { correlationId: string }).correlationId).toBe('trace-me-42');
  });

  it('runs a scripted session that asks for approval: pending, message mid-loop, approve, finished, listed', async () => {
    const started = await expectJson<{ sessionId: string; status: string; model: string; profile: string; scripted: boolean }>(
      await a.call('POST', '/api/sessions', { ...APPROVAL_SESSION, profile: 'mcp-agent', options: { max_tool_iterations: 8 } }),
      201,
    );
    expect(started).toEqual(expect.objectContaining({ status: 'running', model: 'llama3.1:8b', profile: 'mcp-agent', scripted: true }));
    const id = started.sessionId;

    const pending = await pendingOf(id);
    expect(pending).toEqual(expect.objectContaining({ name: 'write_file', queuePosition: 1, totalInQueue: 1 }));
    const all = await expectJson<Array<{ callId: string; sessionId: string }>>(await a.call('GET', '/api/approvals'), 200);
    expect(all).toEqual([expect.objectContaining({ callId: pending.callId, sessionId: id })]);
    expect(await expectJson(await a.call('GET', `/api/approvals?session=${UNKNOWN}`), 200)).toEqual([]);

    // the loop waits on the person: a message now is queued, and injected before the next iteration
    expect(await expectJson(await a.call('POST', `/api/sessions/${id}/messages`, { text: 'Also, be brief.' }), 202)).toEqual({
      queued: true,
      position: 1,
    });
    expect(await expectJson(await a.call('POST', `/api/sessions/${id}/messages`, { text: 'Thanks.' }), 202)).toEqual({
      queued: true,
      position: 2,
    });

    const decided = await expectJson<{ callId: string; approved: boolean }>(
      await a.call('POST', `/api/approvals/${pending.callId}`, { approved: true, reason: 'fine' }),
      200,
    );
    expect(decided).toEqual(expect.objectContaining({ callId: pending.callId, approved: true, name: 'write_file' }));
    // a decision for a call nobody waits on any more is 404
    expect((await a.call('POST', `/api/approvals/${pending.callId}`, { approved: true })).status).toBe(404);

    const done = await finished(id);
    expect(done.session.terminationReason).toBe('completed');
    // the ended session's workspace stays, its root identity is let go (released with the session's tools)
    const workspace = path.join(a.home, 'workspaces', id);
    await waitUntil(() => !holdsRootIdentity(workspace), { what: "the ended session's workspace identity to be let go" });
    expect(fs.existsSync(workspace)).toBe(true);
    expect(done.session.config).toEqual(expect.objectContaining({ profile: 'mcp-agent', maxToolIterations: 8 }));
    const types = done.events.map((e) => e.type);
    expect(types.filter((t) => t === 'user_message_queued')).toHaveLength(2);
    expect(done.events.find((e) => e.type === 'user_message_queued')!.payload).toEqual({ id: expect.any(String), position: 1, chars: 15 });
    expect(types.indexOf('user_message_injected')).toBeGreaterThan(types.indexOf('approval_decided'));
    const decision = (d: Detail) => d.events.find((e) => e.type === 'approval_decided' && e.payload.name === 'write_file')!.payload;
    expect(decision(done)).toEqual(expect.objectContaining({ by: 'person', decision: 'allow' }));
    expect(done.messages.filter((m) => m.kind === 'injected').map((m) => m.content)).toEqual(['Also, be brief.', 'Thanks.']);
    expect(done.toolCalls.map((t) => [t.name, t.status])).toEqual([
      ['read_file', 'completed'],
      ['write_file', 'completed'],
    ]);
    expect(done.live).toBe(false);

    // a finished session takes no message and cannot be killed
    const late = await expectJson<{ message: string }>(await a.call('POST', `/api/sessions/${id}/messages`, { text: 'late' }), 409);
    expect(late.message).toMatch(/has finished \(completed\)/);
    expect((await a.call('POST', `/api/sessions/${id}/kill`, {})).status).toBe(409);
    expect((await a.call('GET', `/api/sessions/${UNKNOWN}`)).status).toBe(404);
    expect((await a.call('POST', `/api/sessions/${UNKNOWN}/kill`, {})).status).toBe(404);

    // listed, and found by its filters
    const list = async (q: string) => expectJson<Page>(await a.call('GET', `/api/sessions${q}`), 200);
    expect((await list('')).items.map((s) => s.id)).toContain(id);
    expect((await list('?model=llama3.1:8b&status=finished&termination=completed')).items.map((s) => s.id)).toContain(id);
    expect((await list('?termination=aborted')).items.map((s) => s.id)).not.toContain(id);
    expect((await list('?model=qwen3:8b')).total).toBe(0);
    expect((await list(`?run=${UNKNOWN}`)).total).toBe(0);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect((await list(`?from=${encodeURIComponent(hourAgo)}`)).items.map((s) => s.id)).toContain(id);
    expect((await list(`?to=${encodeURIComponent(hourAgo)}`)).total).toBe(0);
  });

  it('a rejection from the API goes to the model; a kill ends a waiting session as aborted', async () => {
    const rejected = await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', APPROVAL_SESSION), 201);
    const call = await pendingOf(rejected.sessionId);
    await expectJson(await a.call('POST', `/api/approvals/${call.callId}`, { approved: false, reason: 'not today' }), 200);
    const done = await finished(rejected.sessionId);
    expect(done.events.find((e) => e.type === 'approval_decided' && e.payload.name === 'write_file')!.payload).toEqual(
      expect.objectContaining({ decision: 'deny', by: 'person', reason: 'not today' }),
    );
    expect(done.toolCalls.find((t) => t.name === 'write_file')!.status).toBe('rejected');

    const killed = await expectJson<{ sessionId: string }>(await a.call('POST', '/api/sessions', APPROVAL_SESSION), 201);
    await pendingOf(killed.sessionId);
    expect(await expectJson(await a.call('POST', `/api/sessions/${killed.sessionId}/kill`, { reason: 'enough' }), 200)).toEqual({
      sessionId: killed.sessionId,
      terminationReason: 'aborted',
    });
    const after = await finished(killed.sessionId);
    expect(after.events.find((e) => e.type === 'abort')!.payload).toEqual(expect.objectContaining({ reason: 'enough' }));
    expect(await expectJson(await a.call('GET', '/api/approvals'), 200)).toEqual([]);
    const page = await expectJson<Page>(await a.call('GET', '/api/sessions?termination=aborted&limit=1'), 200);
    expect(page).toEqual(expect.objectContaining({ total: 1, items: [expect.objectContaining({ id: killed.sessionId })] }));
  });
});
