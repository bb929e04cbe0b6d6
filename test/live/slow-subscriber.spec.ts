// Backpressure over real sockets: a subscriber whose TCP connection stops being read (its socket
// paused, as a frozen browser tab) while a session writes megabytes of tool output. The session
// runs to its end regardless; the stalled subscriber's buffer stays bounded (it is dropped, not
// grown) and, once it reads again, it catches up from Postgres: every event, in order, no gap, no
// duplicate, told by session:resync that it fell behind. A subscriber that keeps reading sees it all live.
import type { Socket as NetSocket } from 'node:net';
import { JournalService } from '../../src/journal/journal.service';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

// enough output (about 40 MB) to fill what the kernel buffers for a paused loopback socket (tcp_rmem
// up to 32 MB here): with 160 the paused client could absorb it all, and the server never dropped it
const ITERATIONS = 400;
const BIG = 'x'.repeat(199) + '\n';

function tcpOf(c: LiveClient): NetSocket {
  // socket.io-client → engine.io-client's websocket transport → ws → the net.Socket
  const transport = (c.socket.io as unknown as { engine: { transport: { ws: { _socket: NetSocket } } } }).engine.transport;
  return transport.ws._socket;
}

describe('a subscriber that stops reading', () => {
  let a: ApiApp;
  const clients: LiveClient[] = [];
  beforeAll(async () => {
    a = await startApiApp({ LOUPE_LIVE_BUFFER_ITEMS: '16' });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await a?.close();
  });

  it('does not hold the session up, and catches up from Postgres with no gap and no duplicate', async () => {
    const files = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`big${i}.txt`, BIG.repeat(500)]));
    const script = [
      { tool_calls: [{ name: 'write_file', arguments: { path: 'gate.txt', content: 'go' } }] },
      ...Array.from({ length: ITERATIONS }, (_, i) => ({ tool_calls: [{ name: 'read_file', arguments: { path: `big${i % 4}.txt` } }] })),
      { content: 'Done.' },
    ];
    const res = await a.call('POST', '/api/sessions', {
      prompt: 'Read the big files.',
      permissions: { tools: { write_file: 'ask' } },
      options: {
        repeat_threshold: 0,
        same_tool_threshold: 0,
        cycle_repetitions: 0,
        error_repeat_threshold: 0,
        max_tool_iterations: ITERATIONS + 10,
      },
      files,
      script,
    });
    expect(res.status).toBe(201);
    const { sessionId } = (await res.json()) as { sessionId: string };

    const stalled = new LiveClient(a.base);
    const reader = new LiveClient(a.base);
    clients.push(stalled, reader);
    await Promise.all([stalled.connected(), reader.connected()]);
    for (const c of [stalled, reader]) await c.ask('session:subscribe', { sessionId });
    const gate = await stalled.until(() => stalled.of('tool:approval_required')[0], 'the approval');
    await stalled.until(() => stalled.events(sessionId).some((e) => e.type === 'approval_requested'), 'caught up');
    tcpOf(stalled).pause();

    await a.call('POST', `/api/approvals/${gate.callId as string}`, { approved: true });
    // hang guards sized for a loaded machine: with 3 jest workers and two CPU hogs the catch-up of this
    // backlog (60 reads of 100 KB) took over 60 s, against about 18 s under 3 workers alone
    await reader.until(() => reader.events(sessionId).some((e) => e.type === 'session_finished'), 'the reader to see the end', 240_000);
    const before = stalled.events(sessionId).length;
    await a.app.get(JournalService).flush();
    const stored = (await a.app.get(SessionQueryRepository).events(sessionId)).map((e) => `${e.seq}:${e.type}`);
    expect(stored.length).toBeGreaterThan(ITERATIONS * 4);
    expect(before).toBeLessThan(stored.length); // it really stalled

    tcpOf(stalled).resume();
    // what the stalled one has when it does not catch up: where its feed stopped, and what the server said
    const where = () => {
      const seqs = stalled.events(sessionId).map((e) => e.seq);
      const said = stalled.received.filter((r) => ['error', 'session:resync'].includes(r.event)).map((r) => JSON.stringify(r.body));
      return `stalled: ${seqs.length} events, last seq ${seqs.at(-1)} of ${stored.length}; ${stalled.received.length} messages; said: ${said.join(' ')}`;
    };
    await stalled
      .until(() => stalled.events(sessionId).some((e) => e.type === 'session_finished'), 'the stalled one to catch up', 240_000)
      .catch((e: Error) => {
        throw new Error(`${e.message}\n${where()}`);
      });
    expect(stalled.events(sessionId).map((e) => `${e.seq}:${e.type}`)).toEqual(stored);
    expect(reader.events(sessionId).map((e) => `${e.seq}:${e.type}`)).toEqual(stored);
    expect(stalled.of('session:resync').length).toBeGreaterThanOrEqual(1);
    expect(reader.of('session:resync')).toEqual([]);
  }, 600_000);
});
