import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/loupe-config';
import { createDataSource, migrate } from '../../src/database/data-source';
import { JournalRepository } from '../../src/journal/journal.repository';
import { JournalService } from '../../src/journal/journal.service';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { createTestDatabase } from '../support/test-app';
import { TcpProxy } from '../support/tcp-proxy';
import { testSessionRecorder } from '../support/test-session-recorder';

/** A valid tool_result payload, numbered so each event differs. */
const result = (i: number, name = 'read_file') => ({ id: `call_${i}`, name, status: 'ok' as const, chars: i, durationMs: 0 });

/** The real repository, with its first failed write announced (`first` resolves as the failure reaches the journal). */
function failures() {
  let failed!: () => void;
  const first = new Promise<void>((r) => (failed = r));
  class Repository extends JournalRepository {
    override async write(prepared: Parameters<JournalRepository['write']>[0]) {
      await super.write(prepared).catch((e: unknown) => {
        failed();
        throw e;
      });
    }
  }
  return { Repository, first };
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

  /** A data source reaching Postgres through a proxy the test can cut (a restart, seen from the client). */
  const behindProxy = async (poolSize: number) => {
    const target = new URL(url);
    const proxy = new TcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(url);
    viaProxy.port = String(await proxy.start());
    const ds = createDataSource(viaProxy.toString(), poolSize);
    await ds.initialize();
    return { proxy, ds };
  };

  const configFor = (extra: Record<string, string> = {}) =>
    loadConfig({ LOUPE_HOME: home, DATABASE_URL: url, LOUPE_JOURNAL_FLUSH_MS: '5', LOUPE_JOURNAL_MAX_BATCH: '100', ...extra });

  it('writes interleaved sessions in batches, each a gap-free sequence, with upserts collapsed', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const sessions = [testSessionRecorder(journal), testSessionRecorder(journal), testSessionRecorder(journal)];
    for (let i = 0; i < 400; i++) sessions[i % 3].event('tool_result', result(i));
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

  it("flush waits for what was appended before it, not for a busy neighbour's later entries", async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const mine = testSessionRecorder(journal);
    const busy = testSessionRecorder(journal);
    for (let i = 0; i < 50; i++) mine.event('tool_result', result(i));
    mine.finish({ terminationReason: 'completed', exitCode: 0 });
    // another session keeps appending, on every turn of the event loop for up to 3 s: the journal is never empty meanwhile
    let appending = true;
    let n = 0;
    const until = Date.now() + 3_000;
    const feed = () => {
      if (!appending) return;
      if (Date.now() > until) return void (appending = false);
      for (let i = 0; i < 5; i++) busy.event('tool_result', result(n++));
      setImmediate(feed);
    };
    feed();
    await journal.flush(10_000);
    const stillAppending = appending;
    appending = false;
    expect(stillAppending).toBe(true);
    expect((await countEvents(direct, mine.sessionId)).n).toBe(50);
    const [s] = await direct.query('SELECT status FROM sessions WHERE id = $1', [mine.sessionId]);
    expect(s.status).toBe('finished');
    // and close drains everything, the neighbour's last entries included
    busy.finish({ terminationReason: 'completed', exitCode: 0 });
    await journal.close();
    expect((await countEvents(direct, busy.sessionId)).n).toBe(n);
  });

  it('survives Postgres going away and coming back: nothing lost, nothing duplicated', async () => {
    const { proxy, ds } = await behindProxy(4);
    const failed = failures();
    const journal = new JournalService(new failed.Repository(ds), configFor());
    const rec = testSessionRecorder(journal);
    for (let i = 0; i < 50; i++) rec.event('tool_result', result(i, 'before'));
    await journal.flush();
    proxy.cut();
    for (let i = 0; i < 50; i++) rec.event('tool_result', result(i, 'during'));
    // writes fail while it is down; the entries stay queued (the journal takes them back within the turn)
    await failed.first;
    await nextTurn();
    expect(journal.backlog).toBe(50);
    proxy.restore();
    for (let i = 0; i < 50; i++) rec.event('tool_result', result(i, 'after'));
    await journal.flush(30_000);
    const { n, seqs } = await countEvents(direct, rec.sessionId);
    expect(n).toBe(150);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    await journal.close();
    await ds.destroy();
    await proxy.stop();
  });

  it('builds the next whole batch while one is written; a write that fails then loses and reorders nothing', async () => {
    const { proxy, ds } = await behindProxy(4);
    // the real repository, its calls logged; its first write held until the test lets it go
    const calls: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstFailed!: () => void;
    const failedOnce = new Promise<void>((r) => (firstFailed = r));
    class LoggedRepository extends JournalRepository {
      override prepare(batch: Parameters<JournalRepository['prepare']>[0]) {
        calls.push(`prepare ${batch.events.length}`);
        return super.prepare(batch);
      }
      override async write(prepared: Parameters<JournalRepository['write']>[0]) {
        const n = calls.filter((c) => c.startsWith('write')).length;
        calls.push(`write ${n}`);
        if (n === 0) await held;
        await super.write(prepared).catch((e: unknown) => {
          calls.push(`failed ${n}`);
          if (n === 0) firstFailed();
          throw e;
        });
        calls.push(`written ${n}`);
      }
    }
    const journal = new JournalService(new LoggedRepository(ds), configFor());
    const rec = testSessionRecorder(journal);
    for (let i = 0; i < 450; i++) rec.event('tool_result', result(i));
    // a turn later the second batch is built while the first is still being written
    await new Promise((r) => setImmediate(r));
    // (the first batch: the session's row and 99 events)
    expect(calls).toEqual(['prepare 99', 'write 0', 'prepare 100']);
    expect(journal.backlog).toBe(351);
    // the first write fails (Postgres gone): both batches go back to the front, in order
    proxy.cut();
    release();
    // the failure comes when the cut connection reports it; the journal takes the batch back within
    // that turn, and the retry waits out its backoff
    await failedOnce;
    await nextTurn();
    expect(calls).toEqual(['prepare 99', 'write 0', 'prepare 100', 'failed 0']);
    expect(journal.backlog).toBe(451);
    proxy.restore();
    await journal.flush(30_000);
    const { n, seqs } = await countEvents(direct, rec.sessionId);
    expect(n).toBe(450);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const payloads: Array<{ chars: number }> = (
      await direct.query('SELECT payload FROM events WHERE session_id = $1 ORDER BY id', [rec.sessionId])
    ).map((r: { payload: { chars: number } }) => r.payload);
    expect(payloads.map((p) => p.chars)).toEqual(seqs);
    await journal.close();
    await ds.destroy();
    await proxy.stop();
  });

  it('what arrives during a write waits out its flush interval, then goes in one statement with one snapshot per row', async () => {
    const writes: Array<{ at: number; iterations: number; events: number }> = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstWritten!: () => void;
    const written = new Promise<void>((r) => (firstWritten = r));
    class TimedRepository extends JournalRepository {
      private counts: Array<{ iterations: number; events: number }> = [];
      override prepare(batch: Parameters<JournalRepository['prepare']>[0]) {
        this.counts.push({ iterations: batch.iterations.length, events: batch.events.length });
        return super.prepare(batch);
      }
      override async write(prepared: Parameters<JournalRepository['write']>[0]) {
        writes.push({ at: performance.now(), ...this.counts.shift()! });
        if (writes.length > 1) return super.write(prepared);
        await held;
        await super.write(prepared);
        firstWritten();
      }
    }
    // the journal's interval timer and clock (performance.now) are fake, moved by the test; Postgres's
    // I/O and the turns of the event loop are real
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const journal = new JournalService(new TimedRepository(direct), configFor({ LOUPE_JOURNAL_FLUSH_MS: '1000' }));
      const rec = testSessionRecorder(journal);
      const t0 = performance.now();
      rec.event('tool_result', result(0));
      // the first write starts when its interval is over, and is held
      await jest.advanceTimersByTimeAsync(999);
      expect(writes).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(writes.map((w) => w.at - t0)).toEqual([1000]);
      // meanwhile one iteration's row changes five times, with events between
      const appendedAt = performance.now();
      rec.iterationStarted(0, 'm');
      for (let i = 1; i <= 4; i++) {
        rec.event('tool_result', result(i));
        rec.iterationUpdated(0, i === 4 ? { outcome: 'final_answer', status: 'finished' } : { toolCallCount: i }, i === 4);
      }
      release();
      await written;
      // the first write is done; what came meanwhile waits for its oldest entry's interval, not longer
      await jest.advanceTimersByTimeAsync(999);
      expect(writes).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(writes).toHaveLength(2);
      expect(writes[1].at - appendedAt).toBe(1000);
      expect(writes[1]).toEqual(expect.objectContaining({ iterations: 1, events: 4 }));
      jest.useRealTimers();
      await journal.flush();
      const [it] = await direct.query('SELECT status, outcome FROM iterations WHERE session_id = $1', [rec.sessionId]);
      expect(it).toEqual({ status: 'finished', outcome: 'final_answer' });
      expect((await countEvents(direct, rec.sessionId)).n).toBe(5);
      await journal.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it("writes a batch again whose commit's answer was lost: what it had committed is not doubled, nothing else is lost", async () => {
    // the real repository; its first write commits, then fails as a connection dropped before the answer would
    let lost = 0;
    class LostAnswerRepository extends JournalRepository {
      override async write(prepared: Parameters<JournalRepository['write']>[0]) {
        await super.write(prepared);
        if (lost++ === 0) throw new Error('Connection terminated unexpectedly');
      }
    }
    const journal = new JournalService(new LostAnswerRepository(direct), configFor());
    const rec = testSessionRecorder(journal);
    for (let i = 0; i < 60; i++) rec.event('tool_result', result(i));
    rec.finish({ terminationReason: 'completed', exitCode: 0 });
    await journal.flush(10_000);
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(journal.rejected).toBe(0);
    const { n, seqs } = await countEvents(direct, rec.sessionId);
    expect(n).toBe(60);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const [s] = await direct.query('SELECT status FROM sessions WHERE id = $1', [rec.sessionId]);
    expect(s.status).toBe('finished');
    await journal.close();
  });

  it('spills to a file at shutdown when Postgres stays away, and replays the spill on the next start', async () => {
    const { proxy, ds } = await behindProxy(2);
    const journal = new JournalService(new JournalRepository(ds), configFor());
    const rec = testSessionRecorder(journal);
    rec.event('tool_result', result(0));
    await journal.flush();
    proxy.cut();
    for (let i = 0; i < 20; i++) rec.event('tool_result', result(i + 1));
    rec.finish({ terminationReason: 'completed', exitCode: 0 });
    const spilled = await journal.close(500);
    expect(spilled).toBeDefined();
    // transcripts and tool output: private, and in a directory of its own under LOUPE_HOME
    expect(path.dirname(spilled!)).toBe(path.join(home, 'journal-spill'));
    expect(fs.statSync(spilled!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(spilled!)).mode & 0o777).toBe(0o700);
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
    const rec = testSessionRecorder(journal);
    const payload = {
      markers: ['[Tool Result]', '{"nested": [1, null]}'],
      strippedText: 'a "quoted" \\ back\\slash, {braces}, [brackets], \n newline, é 😀',
      content: '',
    };
    rec.event('hallucination_stripped', payload);
    await journal.flush();
    const [row] = await direct.query('SELECT payload FROM events WHERE session_id = $1', [rec.sessionId]);
    expect(row.payload).toEqual(payload);
  });

  it('records NUL bytes, lone surrogates and control characters from models and tools, recoverable exactly', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const rec = testSessionRecorder(journal, { prompt: 'prompt with a NUL \u0000 byte' });
    const reply = 'model says \u0000 and stops mid-emoji \uD83D';
    const args = { path: 'bin\u0000ary', note: '\uDE00' };
    const fileText = '\u0000\u0001\u0002PNG\r\n\u001a\n\u0000\u0000';
    rec.message({
      role: 'assistant',
      kind: 'assistant',
      content: reply,
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: args }],
      toolCallId: null,
      toolName: null,
      thinking: 'think \u0000',
      iteration: 0,
    });
    rec.toolCall({ id: 'c1', iteration: 0, name: 'read_file', arguments: args });
    rec.toolCall({ id: 'c1', iteration: 0, name: 'read_file', arguments: args, status: 'completed', result: fileText });
    rec.event('tool_call', { id: 'c1', name: 'read_file', arguments: args });
    rec.event('hallucination_stripped', { markers: ['k\u0000'], strippedText: '', content: reply });
    rec.finish({ terminationReason: 'completed', exitCode: 0, error: 'err \u0000' });
    await journal.flush();
    expect(journal.rejected).toBe(0);

    const detail = (await new SessionQueryRepository(direct).getSessionDetail(rec.sessionId))!;
    expect(detail.session.prompt).toBe('prompt with a NUL \u0000 byte');
    expect(detail.session.error).toBe('err \u0000');
    expect(detail.messages[0]).toEqual(
      expect.objectContaining({ content: reply, thinking: 'think \u0000', toolCalls: [{ id: 'c1', name: 'read_file', arguments: args }] }),
    );
    expect(detail.toolCalls[0]).toEqual(expect.objectContaining({ arguments: args, result: fileText }));
    expect(detail.events.map((e) => e.payload)).toEqual([
      { id: 'c1', name: 'read_file', arguments: args },
      { markers: ['k\u0000'], strippedText: '', content: reply },
    ]);
    // the stored columns stay readable for SQL, dashboards and psql
    const [raw] = await direct.query('SELECT content FROM messages WHERE session_id = $1', [rec.sessionId]);
    expect(raw.content).toBe('model says \u2400 and stops mid-emoji \uFFFD');
  });

  it('isolates an entry Postgres refuses: every other entry and session is written, the refusal recorded with its evidence', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const a = testSessionRecorder(journal);
    const b = testSessionRecorder(journal);
    for (let i = 0; i < 30; i++) {
      a.event('tool_result', result(i));
      b.event('tool_result', result(i));
      // an iteration number past int4 cannot be stored whatever its text: Postgres refuses the row
      if (i === 10) a.event('tool_result', result(-1), { iteration: 2 ** 31 });
    }
    a.finish({ terminationReason: 'completed', exitCode: 0 });
    b.finish({ terminationReason: 'completed', exitCode: 0 });
    await journal.flush();
    expect(journal.rejected).toBe(1);
    expect((await countEvents(direct, b.sessionId)).n).toBe(30);
    expect((await countEvents(direct, a.sessionId)).n).toBe(30);
    const [s] = await direct.query('SELECT status FROM sessions WHERE id = $1', [a.sessionId]);
    expect(s.status).toBe('finished');
    const rejected = await direct.query(
      `SELECT payload FROM events WHERE session_id IS NULL AND type = 'journal_entry_rejected' AND payload->>'sessionId' = $1`,
      [a.sessionId],
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0].payload).toEqual(
      expect.objectContaining({ entryKind: 'event', sqlState: '22003', error: expect.stringMatching(/out of range/) }),
    );
    expect(JSON.parse(rejected[0].payload.entry).row).toEqual(
      expect.objectContaining({ type: 'tool_result', seq: 11, iteration: 2 ** 31, payload: result(-1) }),
    );
  });

  it('an entry is queued before it is fanned out: a subscriber that flushes on hearing of it finds it written', async () => {
    // the run feed announces a finished run once the journal has written it, and a client then reads it back
    const journal = new JournalService(new JournalRepository(direct), configFor({ LOUPE_JOURNAL_FLUSH_MS: '1000' }));
    const rec = testSessionRecorder(journal);
    rec.event('tool_result', result(1));
    await journal.flush(10_000);
    let readBack: Promise<unknown> | undefined;
    // and what a subscriber appends on hearing of an entry is written too
    const heard: string[] = [];
    journal.entries$.subscribe((e) => {
      heard.push(e.kind);
      if (e.kind !== 'session' || e.row.status !== 'finished') return;
      readBack = journal.flush(10_000).then(() => direct.query('SELECT status FROM sessions WHERE id = $1', [rec.sessionId]));
      rec.event('tool_result', result(3));
    });
    rec.event('tool_result', result(2));
    rec.finish({ terminationReason: 'completed', exitCode: 0 });
    expect(await readBack).toEqual([{ status: 'finished' }]);
    await journal.close();
    expect(heard).toEqual(['event', 'session', 'event']);
    const rows: Array<{ chars: number }> = await direct.query(
      "SELECT (payload->>'chars')::int AS chars FROM events WHERE session_id = $1 ORDER BY seq",
      [rec.sessionId],
    );
    expect(rows.map((r) => r.chars)).toEqual([1, 2, 3]);
  });

  it('keeps the fan-out live when writing is switched off (journal-off bench mode)', async () => {
    const journal = new JournalService(new JournalRepository(direct), configFor());
    const seen: string[] = [];
    journal.entries$.subscribe((e) => seen.push(e.kind));
    journal.enabled = false;
    const rec = testSessionRecorder(journal);
    rec.event('tool_result', result(1));
    await journal.flush();
    expect(seen).toEqual(['session', 'event']);
    expect(await direct.query('SELECT 1 FROM sessions WHERE id = $1', [rec.sessionId])).toEqual([]);
  });
});
