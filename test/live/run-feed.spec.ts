// The eval run feed over a real socket.io connection to the real app: a run's trials as they start
// and end (verdict, failed checks with their messages, tokens, termination), its progress as each
// lands and its end, the runs list's rows, and bad or unknown subscriptions answered as such. Each
// trial waits on an approval the test gives, so trials land one by one while the socket watches.
import * as fs from 'node:fs';
import type { LiveRun, LiveTrial } from '../../src/live/run-wire';
import { startApiApp, type ApiApp } from '../support/api-app';
import { decideNext, gatedScenarios, startRun } from '../support/gated-run';
import { LiveClient } from '../support/live-client';

describe('eval run feed (socket.io)', () => {
  let a: ApiApp;
  let dir: string;
  const clients: LiveClient[] = [];

  beforeAll(async () => {
    dir = gatedScenarios();
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir });
  });
  afterEach(() => clients.splice(0).forEach((c) => c.close()));
  afterAll(async () => {
    await a?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers bad payloads with the fields at fault, and an unknown run with 404', async () => {
    const c = new LiveClient(a.base);
    clients.push(c);
    await c.connected();
    expect(await c.ask('run:subscribe', { runId: 'nope' })).toEqual(
      expect.objectContaining({ ok: false, status: 400, message: 'invalid run:subscribe' }),
    );
    expect(await c.ask('run:subscribe', { runId: '00000000-0000-4000-8000-000000000000' })).toEqual(
      expect.objectContaining({ ok: false, status: 404 }),
    );
    expect(await c.ask('runs:subscribe', { extra: 1 })).toEqual(expect.objectContaining({ ok: false, status: 400 }));
  });

  it("sends a run's trials one by one as they land, its progress, and its end; the runs list follows", async () => {
    const list = new LiveClient(a.base);
    const follower = new LiveClient(a.base);
    clients.push(list, follower);
    await Promise.all([list.connected(), follower.connected()]);
    expect(await list.ask('runs:subscribe', {})).toEqual({ ok: true });

    const runId = await startRun(a, { scenarios: ['gated.yaml'], set: ['profile=loupe'], trials: 3 });
    const ack = await follower.ask('run:subscribe', { runId });
    expect(ack).toEqual(expect.objectContaining({ ok: true, runId }));
    expect((ack.run as LiveRun).status).toBe('running');
    expect((ack.run as LiveRun).plannedTrials).toBe(3);

    const trials = () => follower.of('run:trial').map((b) => b.trial as LiveTrial);
    const finals = () => trials().filter((t) => t.status !== 'running');
    const updates = () => follower.of('run:update').map((b) => b.run as LiveRun);
    const seen = new Set<string>();

    // one decision, one verdict: nothing else has ended meanwhile
    await decideNext(a, true, seen);
    await follower.until(() => finals().length === 1, 'the first verdict');
    expect(finals()[0]).toEqual(
      expect.objectContaining({ runId, status: 'passed', trialIndex: 1, failed: [], terminationReason: 'completed', profile: 'loupe' }),
    );
    expect(finals()[0].sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(finals()[0].tokens!.input).toBeGreaterThan(0);
    await follower.until(() => updates().some((r) => r.finishedTrials === 1 && r.passed === 1 && r.status === 'running'), 'progress 1/3');

    await decideNext(a, false, seen);
    await follower.until(() => finals().length === 2, 'the second verdict');
    const failed = finals()[1];
    expect(failed.status).toBe('failed');
    // the reason is the failed check with its message
    expect(failed.failed.map((f) => f.expectation).join()).toMatch(/file/);
    expect(failed.failed.some((f) => (f.detail ?? '').length > 0)).toBe(true);

    await decideNext(a, true, seen);
    const done = await follower.until(() => updates().find((r) => r.status === 'finished'), 'the run to finish');
    expect(done).toEqual(
      expect.objectContaining({ finishedTrials: 3, passed: 2, failed: 1, plannedTrials: 3, mode: 'scripted', profiles: ['loupe'] }),
    );
    expect(done.durationMs).toBeGreaterThan(0);
    // every trial was announced running before its verdict
    for (const t of finals()) expect(trials().findIndex((x) => x.id === t.id && x.status === 'running')).toBeLessThan(trials().indexOf(t));

    // the list saw the same run move
    const rows = () =>
      list
        .of('run:update')
        .map((b) => b.run as LiveRun)
        .filter((r) => r.id === runId);
    await list.until(() => rows().some((r) => r.status === 'finished'), 'the list row to finish');
    expect(rows().map((r) => r.finishedTrials)).toEqual(expect.arrayContaining([1, 2, 3]));
    // no trial event reaches a socket that follows only the list
    expect(list.of('run:trial')).toEqual([]);
  });

  it('lists runs with their mode, models, configurations, profiles, trials and duration', async () => {
    const runId = await startRun(a, { scenarios: ['quick.yaml'], trials: 2 });
    const c = new LiveClient(a.base);
    clients.push(c);
    await c.connected();
    // a two-trial run may finish before the subscription lands: the answer then carries it finished
    const ack = (await c.ask('run:subscribe', { runId })) as { run?: LiveRun };
    if (ack.run?.status !== 'finished')
      await c.until(() => c.of('run:update').some((b) => (b.run as LiveRun).status === 'finished'), 'the quick run');
    const runs = (await (await a.call('GET', '/api/eval-runs')).json()) as LiveRun[];
    const row = runs.find((r) => r.id === runId)!;
    expect(row).toEqual(
      expect.objectContaining({
        mode: 'scripted',
        models: [expect.any(String)],
        configurations: [''],
        profiles: ['loupe'],
        plannedTrials: 2,
        finishedTrials: 2,
        passed: 2,
        status: 'finished',
      }),
    );
    expect(row.durationMs).toBeGreaterThan(0);
    const view = (await (await a.call('GET', `/api/eval-runs/${runId}/view`)).json()) as {
      run: LiveRun;
      trials: LiveTrial[];
      cells: unknown[];
    };
    expect(view.run.id).toBe(runId);
    expect(view.trials).toHaveLength(2);
    expect(view.cells).toHaveLength(1);
  });
});
