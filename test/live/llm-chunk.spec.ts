// The model's output as it streams, over a real socket.io connection to the real app, from the
// Ollama stand-in (one NDJSON line per token, paced by the model's tokens per second): llm:chunk
// messages in order that join to the reply journaled whole, fewer messages than streamed tokens
// (joined per tick), reasoning apart from text, nothing of it in Postgres, and nothing kept for a
// session nobody follows.
// covers: stream-processor-deep-dive#requirement-1, stream-processor-deep-dive#step-text-delta
// covers: context-management-plan#component-1, context-management-plan#step-3
import { DataSource } from 'typeorm';
import { JournalService } from '../../src/journal/journal.service';
import type { LlmChunk } from '../../src/live/live-wire';
import { LiveFeed } from '../../src/live/live-feed.service';
import { mergeCatalog } from '../../src/eval/standin-catalog-merge';
import { splitIntoDeltas } from '../../src/standin/standin-chunking';
import { StandinServer } from '../../src/standin/standin-server';
import { eventually, startApiApp, type ApiApp } from '../support/api-app';
import { LiveClient } from '../support/live-client';

const MODEL = 'gpt-oss:20b'; // a harmony model: it always reasons, so thinking streams too
const THINKING = Array.from({ length: 40 }, (_, i) => `step${i}`).join(' ') + '.';
const REPLY = Array.from({ length: 160 }, (_, i) => `word${i}`).join(' ') + '. The end.';
const STREAMED = splitIntoDeltas(THINKING).length + splitIntoDeltas(REPLY).length;

/** an opening write that waits for approval (so a subscriber is there before the reply streams), then the long reply */
const turns = () => [
  { toolCalls: [{ name: 'write_file', arguments: { path: 'gate.txt', content: 'go' } }] },
  { thinking: THINKING, content: REPLY },
];

describe('llm:chunk (streamed model output over the socket)', () => {
  let a: ApiApp;
  let standin: StandinServer;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    standin = new StandinServer({
      catalog: mergeCatalog([
        {
          name: MODEL,
          family: 'gptoss',
          parameterSize: '20.9B',
          capabilities: ['completion', 'tools', 'thinking'],
          contextLength: 131_072,
          // about a second of streaming: many ticks long, so joining per tick shows
          tokensPerSecond: 600,
        },
      ]),
      script: { turns: { [MODEL]: turns() }, loop: true },
    });
    const { url } = await standin.start(0);
    a = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
  });
  afterEach(() => clients.splice(0).forEach((c) => c.close()));
  afterAll(async () => {
    await a?.close();
    await standin?.stop();
  });

  const start = async (): Promise<string> => {
    const res = await a.call('POST', '/api/sessions', {
      prompt: 'Write gate.txt, then tell me a long story.',
      model: MODEL,
      permissions: { tools: { write_file: 'ask' } },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sessionId: string }).sessionId;
  };

  it('streams the reply in order, joined per tick, and it joins to the message journaled whole; nothing of it in Postgres', async () => {
    const c = new LiveClient(a.base);
    clients.push(c);
    await c.connected();
    const id = await start();
    expect(await c.ask('session:subscribe', { sessionId: id })).toEqual(expect.objectContaining({ ok: true }));
    const gate = await c.until(() => c.of('tool:approval_required')[0], 'the opening approval');
    await c.ask('tool:approval', { callId: gate.callId, approved: true });
    await c.until(() => c.events(id).some((e) => e.type === 'session_finished'), 'session_finished');

    const chunks = c.of('llm:chunk') as unknown as LlmChunk[];
    // the opening call streamed nothing (a native tool call); the reply streamed in iteration 1
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((k) => k.sessionId === id && k.iteration === 1 && k.purpose === 'step')).toBe(true);
    expect(chunks.map((k) => k.seq)).toEqual(chunks.map((_, i) => i));
    expect(chunks.map((k) => k.thinking).join('')).toBe(THINKING);
    expect(chunks.map((k) => k.content).join('')).toBe(REPLY);
    // every token the stand-in streamed is in some chunk, and far fewer messages went out than tokens
    expect(chunks.reduce((n, k) => n + k.deltas, 0)).toBe(STREAMED);
    expect(chunks.length).toBeLessThan(STREAMED / 4);

    // the chunks came before the reply itself, which carries the whole text
    const order = c.received.map((r) => r.event);
    const reply = c.received.findIndex((r) => r.event === 'session:message' && (r.body.message as { content: string }).content === REPLY);
    expect(reply).toBeGreaterThan(-1);
    expect(order.lastIndexOf('llm:chunk')).toBeLessThan(reply);

    // Postgres holds the reply once, whole, in the transcript; no row per streamed piece anywhere
    await a.app.get(JournalService).flush();
    const db = a.app.get(DataSource);
    const count = async (sql: string) => ((await db.query(sql, [id])) as Array<{ n: number }>)[0].n;
    const events = await count('SELECT count(*)::int AS n FROM events WHERE session_id = $1');
    const messages = await count('SELECT count(*)::int AS n FROM messages WHERE session_id = $1');
    expect(events).toBe(c.events(id).length);
    expect(events + messages).toBeLessThan(STREAMED / 4);
    const piece = 'word80 word81';
    expect(await count(`SELECT count(*)::int AS n FROM messages WHERE session_id = $1 AND content LIKE '%${piece}%'`)).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM events WHERE session_id = $1 AND (payload::text LIKE '%${piece}%' OR type LIKE '%chunk%')`,
      ),
    ).toBe(0);
    // the stream state went with the session's end
    expect(a.app.get(LiveFeed).openStreams).toBe(0);
  });

  it('keeps nothing for a session nobody follows', async () => {
    const feed = a.app.get(LiveFeed);
    const before = { ...feed.streamStats };
    const id = await start();
    const pending = await eventually(async () => {
      const list = (await (await a.call('GET', `/api/approvals?session=${id}`)).json()) as Array<{ callId: string }>;
      return list[0];
    }, 'the opening approval');
    expect((await a.call('POST', `/api/approvals/${pending.callId}`, { approved: true })).status).toBe(200);
    await eventually(async () => {
      const detail = (await (await a.call('GET', `/api/sessions/${id}`)).json()) as { session: { status: string } };
      return detail.session.status === 'finished' ? true : undefined;
    }, 'the session to finish');
    // the feed saw every streamed piece (the path is live) and kept none of them
    expect(feed.streamStats.deltas - before.deltas).toBe(STREAMED);
    expect(feed.streamStats.buffered).toBe(before.buffered);
    expect(feed.streamStats.chunks).toBe(before.chunks);
    expect(feed.openStreams).toBe(0);
  });
});
