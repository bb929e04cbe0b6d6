import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/loupe-config';
import { createDataSource, migrate } from '../../src/database/data-source';
import { JournalRepository } from '../../src/journal/journal.repository';
import { JournalService } from '../../src/journal/journal.service';
import { SessionRecorder } from '../../src/journal/session-recorder';
import { getTracer } from '../../src/telemetry/telemetry';
import { createTestDatabase } from '../support/test-app';
import { TcpProxy } from '../support/tcp-proxy';

function recorderFor(journal: JournalService): SessionRecorder {
  return new SessionRecorder(journal, {
    id: randomUUID(), pid: 1, agent: 'test', model: 'm', prompt: 'p', councilRole: null, trialId: null, workspace: null, config: {},
  }, getTracer().startSpan('test'));
}

async function countEvents(ds: DataSource, sessionId: string): Promise<{ n: number; seqs: number[] }> {
  const rows: Array<{ seq: number }> = await ds.query('SELECT seq FROM events WHERE session_id = $1 ORDER BY seq', [sessionId]);
  return { n: rows.length, seqs: rows.map((r) => r.seq) };
}

describe('journal: batching, ordering, faults', () => {
  let url: string;
  let direct: DataSource;
  let home: string;
  beforeAll(async () => {
    url = await createTestDatabase();
    direct = createDataSource(url);
    await direct.initialize();
    await migrate(direct);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-journal-'));
  });
  afterAll(async () => {
    await direct.destroy();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const configFor = (extra: Record<string, string> = {}) => loadConfig({ LOUPE_HOME: home, DATABASE_URL: url, LOUPE_JOURNAL_FLUSH_MS: '5', LOUPE_JOURNAL_MAX_BATCH: '100', ...extra });

  it('writes interleaved sessions in batches, each a gap-free sequence, with upserts collapsed', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const sessions = [recorderFor(journal), recorderFor(journal), recorderFor(journal)];
    for (let i = 0; i < 400; i++) sessions[i % 3].event('tool_result', { i });
    sessions[0].iterationStarted(0, 'm');
    sessions[0].iterationUpdated(0, { outcome: 'final_answer', status: 'finished' }, true);
    for (const s of sessions) s.finish({ terminationReason: 'completed', exitCode: 0 });
    await journal.flush();
    for (const s of sessions) {
      const { n, seqs } = await countEvents(direct, s.sessionId);
      expect(n).toBeGreaterThanOrEqual(133);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
    const [it] = await direct.query('SELECT status, outcome FROM iterations WHERE session_id = $1', [sessions[0].sessionId]);
    expect(it).toEqual({ status: 'finished', outcome: 'final_answer' });
    const [s0] = await direct.query('SELECT status, termination_reason FROM sessions WHERE id = $1', [sessions[0].sessionId]);
    expect(s0).toEqual({ status: 'finished', termination_reason: 'completed' });
    expect(journal.written).toBeGreaterThanOrEqual(405);
  });

  it('survives Postgres going away and coming back: nothing lost, nothing duplicated', async () => {
    const target = new URL(url);
    const proxy = new TcpProxy(target.hostname, Number(target.port));
    const port = await proxy.start();
    const viaProxy = new URL(url);
    viaProxy.port = String(port);
    const ds = createDataSource(viaProxy.toString(), 4);
    await ds.initialize();
    const journal = new JournalService(new JournalRepository(ds), configFor());
    const rec = recorderFor(journal);
    for (let i = 0; i < 50; i++) rec.event('tool_result', { phase: 'before', i });
    await journal.flush();
    proxy.cut();
    for (let i = 0; i < 50; i++) rec.event('tool_result', { phase: 'during', i });
    // writes fail while it is down; the entries stay queued
    await new Promise((r) => setTimeout(r, 300));
    expect(journal.backlog).toBeGreaterThan(0);
    proxy.restore();
    for (let i = 0; i < 50; i++) rec.event('tool_result', { phase: 'after', i });
    await journal.flush(30_000);
    const { n, seqs } = await countEvents(direct, rec.sessionId);
    expect(n).toBe(150);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    await journal.close();
    await ds.destroy();
    await proxy.stop();
  });

  it('spills to a file at shutdown when Postgres stays away, and replays the spill on the next start', async () => {
    const target = new URL(url);
    const proxy = new TcpProxy(target.hostname, Number(target.port));
    const port = await proxy.start();
    const viaProxy = new URL(url);
    viaProxy.port = String(port);
    const ds = createDataSource(viaProxy.toString(), 2);
    await ds.initialize();
    const journal = new JournalService(new JournalRepository(ds), configFor());
    const rec = recorderFor(journal);
    rec.event('tool_result', { first: true });
    await journal.flush();
    proxy.cut();
    for (let i = 0; i < 20; i++) rec.event('nudge', { i });
    rec.finish({ terminationReason: 'completed', exitCode: 0 });
    const spilled = await journal.close(500);
    expect(spilled).toBeDefined();
    expect(fs.readFileSync(spilled!, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(21);
    expect((await countEvents(direct, rec.sessionId)).n).toBe(1);
    await ds.destroy().catch(() => undefined);
    await proxy.stop();

    const next = new JournalService(new JournalRepository(direct), configFor());
    expect(await next.replaySpills()).toBeGreaterThanOrEqual(21);
    const { n, seqs } = await countEvents(direct, rec.sessionId);
    expect(n).toBe(21);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const [s] = await direct.query('SELECT status FROM sessions WHERE id = $1', [rec.sessionId]);
    expect(s.status).toBe('finished');
    expect(fs.existsSync(spilled!)).toBe(false);
    await next.close();
  });

  it('stores payloads with quotes, backslashes, unicode and nesting exactly', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const rec = recorderFor(journal);
    const payload = { text: 'a "quoted" \\ back\\slash, {braces}, [brackets], \n newline, é 😀', nested: { list: [1, null, 'x'], empty: {} } };
    rec.event('hallucination_stripped', payload);
    await journal.flush();
    const [row] = await direct.query('SELECT payload FROM events WHERE session_id = $1', [rec.sessionId]);
    expect(row.payload).toEqual(payload);
  });

  it('keeps the fan-out live when writing is switched off (journal-off bench mode)', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const seen: string[] = [];
    journal.entries$.subscribe((e) => seen.push(e.kind));
    journal.enabled = false;
    const rec = recorderFor(journal);
    rec.event('nudge', {});
    await journal.flush();
    expect(seen).toEqual(['session', 'event']);
    expect(await direct.query('SELECT 1 FROM sessions WHERE id = $1', [rec.sessionId])).toEqual([]);
  });
});
