// The live gateway over a real socket.io connection to the real app: the token at connect,
// system:ready with the model chosen in the query, a session's journal events live and in order,
// resumed after a reconnect from the last seq received with no gap and no duplicate (checked
// against Postgres), approvals, tool outputs and errors, messages into a running session, and a
// session started from the socket.
// covers: mcp-agent-technical-spec#error-no-matching-call, mcp-agent-technical-spec#error-tool-execution-error
import { JournalService } from '../../src/journal/journal.service';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { StandinServer } from '../../src/standin/standin-server';
import { API_TOKEN, eventually, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** reads, a write that waits for approval, lists, a second write that waits, and an answer */
const GATED_SESSION = {
  prompt: 'Read the notes, write out.txt, look around, write done.txt.',
  permissions: { tools: { write_file: 'ask' } },
  options: { repeat_threshold: 0, same_tool_threshold: 0, cycle_repetitions: 0, max_tool_iterations: 40 },
  files: Object.fromEntries(range(5).map((i) => [`notes${i}.txt`, `note ${i}\n`])),
  script: [
    // an opening gate: what follows runs only once a subscriber is there to see it live
    { tool_calls: [{ name: 'write_file', arguments: { path: 'start.txt', content: 'go' } }] },
    ...range(5).map((i) => ({ tool_calls: [{ name: 'read_file', arguments: { path: `notes${i}.txt` } }] })),
    { tool_calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'first' } }] },
    ...range(6).map(() => ({ tool_calls: [{ name: 'list_files', arguments: {} }] })),
    { tool_calls: [{ name: 'write_file', arguments: { path: 'done.txt', content: 'second' } }] },
    { tool_calls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
    { content: 'All done.' },
  ],
};

describe('live gateway (socket.io)', () => {
  let a: ApiApp;
  let standin: StandinServer;
  const clients: LiveClient[] = [];
  const client = (opts: ConstructorParameters<typeof LiveClient>[1] = {}) => {
    const c = new LiveClient(a.base, opts);
    clients.push(c);
    return c;
  };
  const start = async (body: unknown): Promise<string> => {
    const res = await a.call('POST', '/api/sessions', body);
    expect(res.status).toBe(201);
    return ((await res.json()) as { sessionId: string }).sessionId;
  };

  beforeAll(async () => {
    // the configured Ollama for sessions started from the socket: always answers the same
    standin = new StandinServer({ script: { turns: { '*': [{ content: 'Hello from the stand-in.' }] }, loop: true } });
    const { url } = await standin.start(0);
    a = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
  });
  afterEach(() => clients.splice(0).forEach((c) => c.close()));
  afterAll(async () => {
    await a?.close();
    await standin?.stop();
  });

  it('refuses a connection without the token or with a wrong one; says system:ready with the chosen model', async () => {
    await expect(client({ token: null }).connected()).rejects.toThrow(/unauthorized/);
    await expect(client({ token: 'wrong' }).connected()).rejects.toThrow(/unauthorized/);
    const ready = await client({ model: 'qwen3:8b' }).connected();
    expect(ready.body).toEqual({ provider: 'ollama', model: 'qwen3:8b', host: standin.url });
    expect((await client().connected()).body.model).toBeNull();
    // the same token as an Authorization header (polling transport sends it on every request)
    const byHeader = new LiveClient(a.base, { token: null, transports: ['polling'] });
    clients.push(byHeader);
    byHeader.socket.io.opts.extraHeaders = { authorization: `Bearer ${API_TOKEN}` };
    byHeader.socket.disconnect().connect();
    await expect(byHeader.connected()).resolves.toEqual(expect.objectContaining({ event: 'system:ready' }));
  });

  it('answers bad payloads with the fields at fault, and an unknown session with 404', async () => {
    const c = client();
    await c.connected();
    expect(await c.ask('session:subscribe', { sessionId: 'nope', afterSeq: 'x' })).toEqual({
      ok: false,
      status: 400,
      message: 'invalid session:subscribe',
      errors: expect.arrayContaining([expect.objectContaining({ field: 'sessionId' }), expect.objectContaining({ field: 'afterSeq' })]),
    });
    expect(await c.ask('session:subscribe', { sessionId: '00000000-0000-4000-8000-000000000000' })).toEqual(
      expect.objectContaining({ ok: false, status: 404, message: 'no session 00000000-0000-4000-8000-000000000000' }),
    );
    // §5: an approval for a call nobody waits on answers `error`
    expect(await c.ask('tool:approval', { callId: 'call_nobody', approved: true })).toEqual(
      expect.objectContaining({ ok: false, status: 404, code: 'unknown_call' }),
    );
    await c.until(() => c.of('error').find((e) => e.code === 'unknown_call'), 'the error event');
    expect(c.of('error')[0]).toEqual({
      code: 'unknown_call',
      callId: 'call_nobody',
      message: 'no tool call call_nobody is waiting for a decision',
    });
  });

  it('resumes after a reconnect from the last seq received: no gap, no duplicate, the same events as Postgres', async () => {
    const first = client();
    await first.connected();
    const id = await start(GATED_SESSION);
    expect(await first.ask('session:subscribe', { sessionId: id })).toEqual({ ok: true, sessionId: id, status: 'running', live: true });
    const gate0 = await first.until(() => first.of('tool:approval_required')[0], 'the opening approval');
    expect(await first.ask('tool:approval', { callId: gate0.callId, approved: true })).toEqual(expect.objectContaining({ ok: true }));
    const gate1 = await first.until(() => first.of('tool:approval_required')[1], 'the first approval');
    expect(gate1).toEqual(expect.objectContaining({ sessionId: id, name: 'write_file', queuePosition: 1, totalInQueue: 1 }));
    await first.until(() => first.events(id).some((e) => e.type === 'approval_requested'), 'approval_requested');
    const seenFirst = first.events(id).map((e) => e.seq);
    first.close();

    // while nobody listens, the session goes on to its second approval
    const approved = await a.call('POST', `/api/approvals/${gate1.callId as string}`, { approved: true });
    expect(approved.status).toBe(200);
    await eventually(async () => {
      const pending = (await (await a.call('GET', `/api/approvals?session=${id}`)).json()) as unknown[];
      return pending.length ? pending : undefined;
    }, 'the second approval');

    const second = client();
    await second.connected();
    const resumeFrom = seenFirst.at(-1)!;
    expect(await second.ask('session:subscribe', { sessionId: id, afterSeq: resumeFrom })).toEqual(expect.objectContaining({ ok: true }));
    // a pending approval is told to a subscriber that arrives after it was asked
    const gate2 = await second.until(() => second.of('tool:approval_required')[0], 'the second approval');
    expect(gate2).toEqual(expect.objectContaining({ name: 'write_file', args: { path: 'done.txt', content: 'second' } }));
    // a third client follows from the very beginning, mid-run
    const fresh = client();
    await fresh.connected();
    await fresh.ask('session:subscribe', { sessionId: id });

    expect(await second.ask('tool:approval', { callId: gate2.callId, approved: true })).toEqual({
      ok: true,
      callId: gate2.callId,
      approved: true,
      sessionId: id,
    });
    await second.until(() => second.events(id).some((e) => e.type === 'session_finished'), 'session_finished (resumed client)');
    await fresh.until(() => fresh.events(id).some((e) => e.type === 'session_finished'), 'session_finished (fresh client)');
    // the live notices of the session's last tick end with its finished row: a client catching up from
    // Postgres can read session_finished there before that tick goes out
    const finishedRow = () => second.of('session:update').find((u) => (u.session as { status: string }).status === 'finished');
    await second.until(finishedRow, 'the finished session row');

    await a.app.get(JournalService).flush();
    const stored = await a.app.get(SessionQueryRepository).events(id);
    const expected = stored.map((e) => `${e.seq}:${e.type}`);
    expect(expected.length).toBeGreaterThan(40);
    const resumed = [...first.events(id), ...second.events(id)].map((e) => `${e.seq}:${e.type}`);
    expect(resumed).toEqual(expected);
    expect(second.events(id)[0].seq).toBe(resumeFrom + 1);
    expect(fresh.events(id).map((e) => `${e.seq}:${e.type}`)).toEqual(expected);
    // payloads are the recorded ones
    const decided = second.events(id).find((e) => e.type === 'approval_decided' && e.payload.name === 'write_file')!;
    expect(decided.payload).toEqual(stored.find((e) => e.seq === decided.seq)!.payload);

    // tool:output for each completed call while subscribed (live notices: the journal events are what resumes), agent:error for the failed read
    // (the reads ran after the opening approval, given while subscribed: every one of them is a live notice)
    const firstOutputs = first.of('tool:output').map((o) => o.name);
    expect(firstOutputs).toEqual(['write_file', ...range(5).map(() => 'read_file')]);
    const outputs = second.of('tool:output');
    expect(outputs.map((o) => o.name)).toEqual(['write_file']);
    expect(outputs.find((o) => o.name === 'write_file')).toEqual(
      expect.objectContaining({ sessionId: id, output: expect.stringContaining('done.txt'), truncated: false }),
    );
    expect(second.of('agent:error')).toEqual([
      expect.objectContaining({ sessionId: id, name: 'read_file', kind: 'tool_failed', message: expect.stringContaining('missing.txt') }),
    ]);
    // the transcript came along
    expect(second.of('session:message').map((m) => (m.message as { content: string }).content)).toContain('All done.');
    expect(finishedRow()).toEqual({ session: expect.objectContaining({ id, status: 'finished', terminationReason: 'completed' }) });
    expect(second.of('session:update').at(-1)).toEqual(finishedRow());
  });

  it('sends a message into a running session, and starts a session with the connection model', async () => {
    const c = client({ model: 'llama3.1:8b' });
    await c.connected();
    const id = await start(GATED_SESSION);
    await c.ask('session:subscribe', { sessionId: id });
    const gate = await c.until(() => c.of('tool:approval_required')[0], 'an approval');
    expect(await c.ask('message', { sessionId: id, text: 'Keep it short.' })).toEqual({
      ok: true,
      sessionId: id,
      queued: true,
      position: 1,
    });
    expect(await c.ask('tool:approval', { callId: gate.callId, approved: false, reason: 'no' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    await c.until(() => c.events(id).some((e) => e.type === 'user_message_injected'), 'the injected message');
    await c.until(() => c.of('agent:error').find((e) => e.kind === 'tool_rejected'), 'the rejection as agent:error');
    await a.call('POST', `/api/sessions/${id}/kill`, {});

    const list = client();
    await list.connected();
    expect(await list.ask('sessions:subscribe', {})).toEqual({ ok: true });
    const started = await c.ask('message', { text: 'Say hello.' });
    expect(started).toEqual(expect.objectContaining({ ok: true, model: 'llama3.1:8b', status: 'running', scripted: false }));
    const newId = started.sessionId as string;
    await c.until(() => c.events(newId).find((e) => e.type === 'session_finished'), 'the new session to finish');
    expect(c.events(newId).map((e) => e.seq)).toEqual(range(c.events(newId).length));
    expect(c.events(newId).find((e) => e.type === 'session_finished')!.payload).toEqual(expect.objectContaining({ reason: 'completed' }));
    await list.until(
      () =>
        list
          .of('session:update')
          .find(
            (u) => (u.session as { id: string; status: string }).id === newId && (u.session as { status: string }).status === 'finished',
          ),
      'the list update',
    );
    // no model in the query and none given: the answer names the field
    const noModel = client();
    await noModel.connected();
    expect(await noModel.ask('message', { text: 'hi' })).toEqual(
      expect.objectContaining({ ok: false, status: 400, errors: [expect.objectContaining({ field: 'model' })] }),
    );
  });
});
