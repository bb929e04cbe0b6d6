// An id in an API answer can be read back at once: POST /api/sessions answers 201 and POST
// /api/eval-runs 202 only once the row they name is in Postgres, and a read that misses a row still
// on its way to Postgres waits for the journal instead of answering 404. The journal here writes
// only when asked to (or after 30 s), so without those waits every read below would miss.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { JournalService } from '../../src/journal/journal.service';
import { testSessionRecorder } from '../support/test-session-recorder';
import { startApiApp, type ApiApp, expectJson } from '../support/api-app';

describe('admin API: an id in an answer can be read back at once', () => {
  let a: ApiApp;
  beforeAll(async () => {
    a = await startApiApp({ LOUPE_JOURNAL_FLUSH_MS: '30000' });
  });
  afterAll(async () => {
    await a?.close();
  });

  /**
   * Holds `table` locked against writes (reads go on) while `start` runs, and lets go after
   * `holdMs`: an answer that came while the lock was held came before its row could be written.
   */
  const whileWritesWait = async <T>(table: string, holdMs: number, start: () => Promise<T>) => {
    const locker = new Client({ connectionString: a.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      let released = false;
      const release = new Promise<void>((r) => setTimeout(r, holdMs)).then(async () => {
        released = true;
        await locker.query('COMMIT');
      });
      const answer = await start();
      const answeredWhileLocked = !released;
      await release;
      return { answer, answeredWhileLocked };
    } finally {
      await locker.end();
    }
  };

  it('a started session is listed and read back from its 201 on', async () => {
    const { answer, answeredWhileLocked } = await whileWritesWait('sessions', 400, () =>
      a.call('POST', '/api/sessions', { prompt: 'Say hello.', script: [{ content: 'Hello.' }] }),
    );
    expect(answeredWhileLocked).toBe(false);
    const { sessionId } = await expectJson<{ sessionId: string }>(answer, 201);
    // the list reads Postgres as it is (it never waits for the journal)
    const list = await expectJson<{ items: Array<{ id: string }> }>(await a.call('GET', '/api/sessions?limit=100'), 200);
    expect(list.items.map((s) => s.id)).toContain(sessionId);
    const detail = await expectJson<{ session: { id: string } }>(await a.call('GET', `/api/sessions/${sessionId}`), 200);
    expect(detail.session.id).toBe(sessionId);
  });

  it('a started eval run is listed and read back from its 202 on', async () => {
    const { answer, answeredWhileLocked } = await whileWritesWait('eval_runs', 400, () =>
      a.call('POST', '/api/eval-runs', { scenarios: ['approval/rejection-stops.yaml'], trials: 1 }),
    );
    expect(answeredWhileLocked).toBe(false);
    const { runId } = await expectJson<{ runId: string }>(answer, 202);
    const list = await expectJson<Array<{ id: string }>>(await a.call('GET', '/api/eval-runs?limit=100'), 200);
    expect(list.map((r) => r.id)).toContain(runId);
    const detail = await expectJson<{ run: { id: string } }>(await a.call('GET', `/api/eval-runs/${runId}`), 200);
    expect(detail.run.id).toBe(runId);
  });

  it('a session or run whose row the journal holds but has not written is read back, not 404', async () => {
    const journal = a.app.get(JournalService);
    // a session this process no longer runs (a finished trial's, say) whose rows are still pending
    const session = testSessionRecorder(journal);
    const sessionId = session.snapshot().id;
    expect(journal.backlog).toBeGreaterThan(0);
    expect((await expectJson<{ session: { id: string } }>(await a.call('GET', `/api/sessions/${sessionId}`), 200)).session.id).toBe(
      sessionId,
    );

    const runId = randomUUID();
    journal.append({
      kind: 'eval_run',
      row: {
        id: runId,
        status: 'running',
        startedAt: new Date(),
        finishedAt: null,
        scenarioCount: 1,
        trialCount: 1,
        passed: 0,
        failed: 0,
        unjudged: 0,
        errored: 0,
        options: {},
        loupeVersion: null,
        ownerPid: process.pid,
        ownerHost: 'read-back-test',
        config: {},
        statistics: null,
      },
    });
    expect(journal.backlog).toBeGreaterThan(0);
    expect((await expectJson<{ run: { id: string } }>(await a.call('GET', `/api/eval-runs/${runId}`), 200)).run.id).toBe(runId);
    const compared = await a.call('GET', `/api/eval-runs/compare?a=${runId}&b=${runId}`);
    expect(compared.status).toBe(200);
    // an id nobody recorded is still 404
    expect((await a.call('GET', `/api/sessions/${randomUUID()}`)).status).toBe(404);
    expect((await a.call('GET', `/api/eval-runs/${randomUUID()}`)).status).toBe(404);
  });
});
