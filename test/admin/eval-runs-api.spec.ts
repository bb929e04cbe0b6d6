// The admin API for eval runs: started in the background (202 with the run id), read back with
// its statistics, cells and trials (each trial linked to its session), listed, compared; scenario
// paths cannot leave the scenarios directory, and every bad field is named.
import { eventually, startApiApp, type ApiApp, expectJson } from '../support/api-app';

interface RunDetail {
  run: { id: string; status: string; passed: number; failed: number; errored: number; statistics: Record<string, unknown> | null };
  cells: Array<{
    scenarioId: string;
    model: string;
    configKey: string;
    trials: number;
    passed: number;
    statistics: Record<string, unknown>;
  }>;
  trials: Array<{ scenarioId: string; configKey: string; status: string; sessionId: string | null }>;
}

describe('admin API: eval runs', () => {
  let a: ApiApp;
  const finishedRun = (id: string) =>
    eventually(
      async () => {
        const d = await expectJson<RunDetail>(await a.call('GET', `/api/eval-runs/${id}`), 200);
        return d.run.status === 'finished' && d.run.statistics ? d : undefined;
      },
      `run ${id}`,
      60_000,
    );

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it.each([
    ['POST', '/api/eval-runs'],
    ['GET', '/api/eval-runs'],
    ['GET', '/api/eval-runs/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/eval-runs/compare?a=00000000-0000-4000-8000-000000000000&b=00000000-0000-4000-8000-000000000000'],
  ])('%s %s refuses a missing or wrong token', async (method, route) => {
    expect((await a.call(method, route, method === 'POST' ? { scenarios: ['approval'] } : undefined, null)).status).toBe(401);
    expect((await a.call(method, route, method === 'POST' ? { scenarios: ['approval'] } : undefined, 'nope')).status).toBe(401);
  });

  it('names every bad field: shapes, paths outside the scenarios directory, axes, scenario problems, stand-in models', async () => {
    const shape = await expectJson<{ errors: Array<{ field: string }> }>(
      await a.call('POST', '/api/eval-runs', { scenarios: [], trials: 0, concurrency: 'x', judge: 'maybe' }),
      400,
    );
    expect([...new Set(shape.errors.map((e) => e.field))].sort()).toEqual(['concurrency', 'judge', 'scenarios', 'trials']);
    const paths = await expectJson<{ errors: Array<{ field: string; message: string }> }>(
      await a.call('POST', '/api/eval-runs', { scenarios: ['../package.json', '/etc', 'approval'], set: ['max_tool_iteration=3'] }),
      400,
    );
    expect(paths.errors).toEqual([
      { field: 'scenarios.0', message: expect.stringContaining('leaves the workspace') },
      { field: 'scenarios.1', message: expect.stringContaining('absolute') },
      { field: 'set', message: expect.stringContaining('did you mean "max_tool_iterations"') },
    ]);
    const missing = await expectJson<{ errors: Array<{ field: string; message: string }> }>(
      await a.call('POST', '/api/eval-runs', { scenarios: ['no-such-dir'] }),
      400,
    );
    expect(missing.errors).toEqual([{ field: 'scenarios', message: 'no-such-dir:0:0: no such file or directory' }]);
    const model = await expectJson<{ errors: Array<{ field: string; message: string }> }>(
      await a.call('POST', '/api/eval-runs', { scenarios: ['approval/queued-approvals.yaml'], models: ['gpt-9:1t'] }),
      400,
    );
    expect(model.errors).toEqual([{ field: 'models', message: expect.stringContaining('the stand-in has no model "gpt-9:1t"') }]);
    // no host path leaks into an answer
    expect(JSON.stringify([paths, missing, model])).not.toContain(a.config.api.scenariosDir);
  });

  it('starts runs in the background, reads them back with cells and trials, lists and compares them', async () => {
    const body = {
      scenarios: ['approval/queued-approvals.yaml', 'approval/rejection-stops.yaml'],
      set: ['profile=loupe'],
      trials: 2,
      concurrency: 2,
    };
    const first = await expectJson<{ runId: string; status: string; scenarios: number }>(await a.call('POST', '/api/eval-runs', body), 202);
    expect(first).toEqual({ runId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'running', scenarios: 2 });
    const second = await expectJson<{ runId: string }>(await a.call('POST', '/api/eval-runs', body), 202);

    const run = await finishedRun(first.runId);
    expect(run.run).toEqual(expect.objectContaining({ passed: 4, failed: 0, errored: 0 }));
    expect(run.cells.map((c) => [c.scenarioId, c.configKey, c.trials, c.passed])).toEqual([
      ['approval/queued-approvals', 'profile=loupe', 2, 2],
      ['approval/rejection-stops', 'profile=loupe', 2, 2],
    ]);
    expect(run.cells[0].statistics).toEqual(expect.objectContaining({ passRate: expect.objectContaining({ rate: 1, n: 2 }) }));
    expect(run.trials).toHaveLength(4);
    // every trial links to its session, which the sessions API finds by the run
    const sessions = await expectJson<{ items: Array<{ id: string }>; total: number }>(
      await a.call('GET', `/api/sessions?run=${first.runId}`),
      200,
    );
    expect(sessions.total).toBe(4);
    expect(sessions.items.map((s) => s.id).sort()).toEqual(run.trials.map((t) => t.sessionId).sort());

    await finishedRun(second.runId);
    const list = await expectJson<Array<{ id: string }>>(await a.call('GET', '/api/eval-runs?limit=10'), 200);
    expect(list.map((r) => r.id)).toEqual(expect.arrayContaining([first.runId, second.runId]));
    expect(await expectJson<unknown[]>(await a.call('GET', '/api/eval-runs?limit=1&offset=5'), 200)).toEqual([]);

    const compared = await expectJson<{ a: string; b: string; comparison: { run: { verdict: string; test: string }; cells: unknown[] } }>(
      await a.call('GET', `/api/eval-runs/compare?a=${first.runId}&b=${second.runId}&alpha=0.1`),
      200,
    );
    expect(compared.a).toBe(first.runId);
    // two runs, each with its own seed: independent trials
    expect(compared.comparison.run).toEqual(expect.objectContaining({ verdict: 'no_significant_change', test: 'fisher_exact' }));
    expect(compared.comparison.cells).toHaveLength(2);

    expect((await a.call('GET', '/api/eval-runs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const unknown = await a.call('GET', `/api/eval-runs/compare?a=${first.runId}&b=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect((await a.call('GET', `/api/eval-runs/compare?a=${first.runId}&b=${second.runId}&alpha=2`)).status).toBe(400);
  }, 120_000);
});
