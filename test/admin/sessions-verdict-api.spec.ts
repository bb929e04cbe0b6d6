// The sessions API as a researcher's workbench reads it (issue 41): a session that ran for a trial
// carries its verdict (scenario, run, cell, profile, configuration, each check with its message)
// apart from how its loop ended; each iteration and the session link into the trace store when a
// URL template is set; the list names each session's scenario or prompt, profile, run, verdict and
// duration, and filters on each (validated).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { eventually, expectJson, startApiApp, type ApiApp } from '../support/api-app';

const scenario = (id: string, wanted: string) => `id: ${id}
title: ${id} title
profile: loupe
prompt: Say done.
script:
  - content: Done.
expect:
  - termination: completed
  - final_answer: { contains: ${wanted} }
`;

const TEMPLATE = 'http://grafana.test/explore?trace={traceId}&span={spanId}';

interface Item {
  id: string;
  prompt: string;
  profile: string | null;
  durationMs: number | null;
  iterations: number;
  trial: { runId: string; scenarioId: string; scenarioTitle: string; status: string; trialIndex: number } | null;
}
interface Page {
  items: Item[];
  total: number;
}

describe('admin API: session verdicts, trace links and list filters', () => {
  let a: ApiApp;
  let dir: string;
  let runId: string;
  let cells: Array<{ key: string; scenarioId: string }>;
  const list = async (q: string) => expectJson<Page>(await a.call('GET', `/api/sessions?${q}`), 200);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-session-verdict-'));
    fs.writeFileSync(path.join(dir, 'fails.yaml'), scenario('t/fails', 'Banana'));
    fs.writeFileSync(path.join(dir, 'passes.yaml'), scenario('t/passes', 'Done'));
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: dir, LOUPE_TRACE_URL_TEMPLATE: TEMPLATE });
    ({ runId } = await expectJson<{ runId: string }>(await a.call('POST', '/api/eval-runs', { scenarios: ['.'], trials: 1 }), 202));
    const run = await eventually(
      async () => {
        const d = (await (await a.call('GET', `/api/eval-runs/${runId}`)).json()) as {
          run: { status: string; statistics: unknown };
          cells: Array<{ key: string; scenarioId: string }>;
        };
        return d.run.status !== 'running' && d.run.statistics ? d : undefined;
      },
      'the run',
      60_000,
    );
    cells = run.cells;
    // a session that is no trial
    await expectJson(await a.call('POST', '/api/sessions', { prompt: 'Greet 100% of them_all.', script: [{ content: 'Hello.' }] }), 201);
    await eventually(async () => ((await list('verdict=none&status=finished')).total === 1 ? true : undefined), 'the ad-hoc session');
  });
  afterAll(async () => {
    await a?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists each session with its scenario or prompt, profile, run, verdict and duration', async () => {
    const page = await list(`run=${runId}`);
    expect(page.total).toBe(2);
    const byScenario = Object.fromEntries(page.items.map((i) => [i.trial?.scenarioId, i]));
    expect(byScenario['t/fails']).toEqual(
      expect.objectContaining({
        prompt: 'Say done.',
        profile: 'loupe',
        iterations: 1,
        durationMs: expect.any(Number),
        trial: expect.objectContaining({ runId, scenarioTitle: 't/fails title', status: 'failed', trialIndex: 1 }),
      }),
    );
    expect(byScenario['t/passes'].trial!.status).toBe('passed');
    const adHoc = (await list('verdict=none')).items;
    expect(adHoc).toHaveLength(1);
    expect(adHoc[0]).toEqual(expect.objectContaining({ trial: null, prompt: 'Greet 100% of them_all.', profile: 'loupe' }));
  });

  it.each([
    ['verdict=failed', ['t/fails']],
    ['verdict=passed', ['t/passes']],
    ['verdict=unjudged', []],
    ['scenario=FAIL', ['t/fails']],
    ['scenario=passes%20title', ['t/passes']],
    ['scenario=t%2F', ['t/fails', 't/passes']],
    ['prompt=say%20DONE', ['t/fails', 't/passes']],
    ['prompt=%25', []],
    ['profile=loupe', ['t/fails', 't/passes']],
    ['profile=opencode', []],
    ['minIterations=1&maxIterations=1', ['t/fails', 't/passes']],
    ['minIterations=2', []],
    ['maxIterations=0', []],
    ['minDurationMs=0&maxDurationMs=3600000', ['t/fails', 't/passes']],
    ['minDurationMs=3600000', []],
  ])('filters the run by %s', async (q, scenarios) => {
    const page = await list(`run=${runId}&${q}`);
    expect(page.items.map((i) => i.trial?.scenarioId).sort()).toEqual(scenarios);
    expect(page.total).toBe(scenarios.length);
  });

  it('a literal % or _ in a filter matches only itself', async () => {
    expect((await list('prompt=100%25%20of%20them_all')).total).toBe(1);
    expect((await list('prompt=1_0')).total).toBe(0);
  });

  it('answers 400 naming each bad filter', async () => {
    const bad = await expectJson<{ errors: Array<{ field: string }> }>(
      await a.call(
        'GET',
        '/api/sessions?verdict=green&profile=nope&minIterations=-1&maxIterations=x&minDurationMs=1.5&maxDurationMs=abc&scenario=',
      ),
      400,
    );
    expect([...new Set(bad.errors.map((e) => e.field))].sort()).toEqual(
      ['maxDurationMs', 'maxIterations', 'minDurationMs', 'minIterations', 'profile', 'scenario', 'verdict'].sort(),
    );
  });

  it('a failed trial: its verdict beside how its loop ended, each check with its message, and its cell', async () => {
    const [item] = (await list(`run=${runId}&verdict=failed`)).items;
    const d = await expectJson<{
      session: { terminationReason: string; traceId: string; spanId: string };
      verdict: Record<string, unknown> & { checks: Array<{ expectation: string; passed: boolean; detail?: string }> };
      traceUrl: string | null;
      iterations: Array<{
        idx: number;
        traceId: string;
        spanId: string;
        traceUrl: string | null;
        inputTokens: number;
        outputTokens: number;
      }>;
      messages: Array<{ idx: number }>;
      messagesUpTo: number;
    }>(await a.call('GET', `/api/sessions/${item.id}`), 200);
    // the loop completed; the trial failed: two different facts
    expect(d.session.terminationReason).toBe('completed');
    const cell = cells.find((c) => c.scenarioId === 't/fails')!;
    expect(d.verdict).toEqual(
      expect.objectContaining({
        status: 'failed',
        judged: true,
        runId,
        cellKey: cell.key,
        scenarioId: 't/fails',
        scenarioTitle: 't/fails title',
        profile: 'loupe',
        trialIndex: 1,
        mode: 'scripted',
        error: null,
      }),
    );
    const failed = d.verdict.checks.filter((c) => !c.passed);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toEqual({ expectation: expect.stringContaining('Banana'), passed: false, detail: expect.any(String) });
    expect(d.verdict.checks).toEqual([{ expectation: 'session terminates with completed', passed: true }, failed[0]]);
    expect(failed[0].detail).toBe('final answer "Done." does not contain "Banana"');
    expect(d.verdict.failed).toEqual(failed);

    expect(d.traceUrl).toBe(`http://grafana.test/explore?trace=${d.session.traceId}&span=${d.session.spanId}`);
    expect(d.iterations.length).toBeGreaterThan(0);
    for (const i of d.iterations) {
      expect(i.traceUrl).toBe(`http://grafana.test/explore?trace=${i.traceId}&span=${i.spanId}`);
      expect(i.inputTokens).toBeGreaterThan(0);
      expect(i.outputTokens).toBeGreaterThan(0);
    }
    expect(d.messagesUpTo).toBe(Math.max(...d.messages.map((m) => m.idx)));
  });

  it('a session that is no trial has no verdict', async () => {
    const [item] = (await list('verdict=none')).items;
    const d = await expectJson<{ verdict: unknown }>(await a.call('GET', `/api/sessions/${item.id}`), 200);
    expect(d.verdict).toBeNull();
  });
});
