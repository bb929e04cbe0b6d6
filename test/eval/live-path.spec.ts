// The eval's live path end to end, as a user runs it: the built CLI with OLLAMA_HOST at a stand-in
// (in process, every model loading in a few hundred ms) over 3 models × 2 num_ctx at -c 2. Each
// (model, num_ctx) group is warmed with its options before its trials, groups never run against
// each other, and no measured turn pays a load; a load forced by another client between two turns
// is recorded as `model_reloaded` and counted as the run's pathology.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import type { StandinRequestRecord } from '../../src/standin/standin-request-log';
import type { StandinServer } from '../../src/standin/standin-server';
import type { StandinModel, StandinTurn } from '../../src/standin/standin-script';
import { startStandin } from '../provider/provider-test-kit';
import { runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const MODELS = ['alpha:1b', 'beta:1b', 'gamma:1b'];
const LOAD_MS = 300;
const ANSWER = 'The task is done.';

const catalog = (names: string[]): StandinModel[] =>
  names.map((name) => ({
    name,
    family: 'llama',
    parameterSize: '1.0B',
    capabilities: ['completion', 'tools'],
    contextLength: 32768,
    parallel: 2,
    loadMs: LOAD_MS,
  }));

type Body = { messages?: unknown[]; options?: { num_ctx?: number } };
const body = (r: StandinRequestRecord) => (r.body ?? {}) as Body;
const chats = (s: StandinServer) => s.requests.filter((r) => r.path === '/api/chat');
const isLoad = (r: StandinRequestRecord) => (body(r).messages?.length ?? 0) === 0;
/** the load this request performed (the stand-in's record of it), when it performed one */
const loadOf = (r: StandinRequestRecord) => (r as StandinRequestRecord & { load?: { cause: string } }).load;

function scenario(dir: string, id: string, numCtx: number, script: StandinTurn[] = [{ content: ANSWER }]): void {
  fs.writeFileSync(
    path.join(dir, `${id}.yaml`),
    [
      `id: live/${id}`,
      'title: single turn',
      'spec: live',
      'prompt: List the files, then say done.',
      'config:',
      `  num_ctx: ${numCtx}`,
      'script:',
      ...script.map((t) =>
        t.toolCalls ? `  - tool_calls: [{ name: ${t.toolCalls[0].name}, arguments: { path: "." } }]` : `  - content: ${t.content}`,
      ),
      'success:',
      '  - final_answer: { contains: done }',
    ].join('\n'),
  );
}

async function reloadEvents(url: string): Promise<Array<{ measured?: boolean; model?: string; cause?: string }>> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query(`SELECT payload FROM events WHERE type = 'model_reloaded' ORDER BY id`)).rows.map((r) => r.payload);
  } finally {
    await db.end();
  }
}

describe('the live path (built CLI, stand-in as OLLAMA_HOST)', () => {
  let tmp: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-live-path-'));
    env = {
      DATABASE_URL: await createTestDatabase(),
      LOUPE_HOME: path.join(tmp, 'home'),
      OLLAMA_NUM_CTX: undefined,
      OLLAMA_MAX_PARALLEL: undefined,
      OLLAMA_KEEP_ALIVE: undefined,
      // the stand-in's loads take LOAD_MS: a reply's load_duration that long is a load
      OLLAMA_RELOAD_THRESHOLD_MS: String(LOAD_MS / 3),
      LOUPE_LOG_LEVEL: 'error',
    };
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('warms each (model, num_ctx) group with its options, drains a group before the next, and no measured turn reloads', async () => {
    const { server, url } = await startStandin({ catalog: catalog(MODELS), script: { turns: { '*': [{ content: ANSWER }] }, loop: true } });
    const dir = fs.mkdtempSync(path.join(tmp, 'grouped-'));
    scenario(dir, 'small', 2048);
    scenario(dir, 'large', 4096);
    try {
      const r = await runCli(
        ['eval', dir, '--json', '-m', MODELS.join(','), '-t', '2', '-c', '2'],
        { ...env, OLLAMA_HOST: url },
        { timeoutMs: 120_000 },
      );
      expect(r.stderr).not.toMatch(/OLLAMA_HOST is not ready/);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as { summary: { passed: number; trials: number }; reloadsInMeasuredTurns: number; mode: string };
      expect(report.mode).toBe('live');
      expect(report.summary).toEqual(expect.objectContaining({ passed: 12, trials: 12 }));
      expect(report.reloadsInMeasuredTurns).toBe(0);

      const all = chats(server);
      const asks = all.filter((q) => !isLoad(q));
      expect(asks).toHaveLength(12);
      // every group was warmed with the num_ctx its trials send, before any of them asked
      for (const model of MODELS)
        for (const numCtx of [2048, 4096]) {
          const group = asks.filter((q) => q.model === model && body(q).options?.num_ctx === numCtx);
          expect(group).toHaveLength(2);
          const warm = all.find((q) => isLoad(q) && q.model === model && body(q).options?.num_ctx === numCtx);
          expect(warm).toBeDefined();
          for (const q of group) expect(q.receivedAt).toBeGreaterThanOrEqual(warm!.finishedAt!);
        }
      // a group boundary drains: no request of one group is in flight while another group's runs
      const key = (q: StandinRequestRecord) => `${q.model}|${body(q).options?.num_ctx}`;
      for (const a of asks)
        for (const b of asks) if (key(a) !== key(b)) expect(a.finishedAt! <= b.receivedAt || b.finishedAt! <= a.receivedAt).toBe(true);
      // loads happened on warm-ups only
      expect(asks.filter((q) => loadOf(q))).toEqual([]);
      expect((await reloadEvents(env.DATABASE_URL!)).filter((e) => e.measured)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('records a reload forced between two turns (another client changed num_ctx) as model_reloaded in a measured turn', async () => {
    const model = 'alpha:1b';
    // turn 2 is slow to answer: while it runs, another client asks for the model at another num_ctx
    const turns: StandinTurn[] = [
      { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }], fault: { kind: 'delay_first_byte', ms: 1500 } },
      { content: ANSWER },
    ];
    const { server, url } = await startStandin({ catalog: catalog([model]), script: { turns: { [model]: turns }, loop: true } });
    const dir = fs.mkdtempSync(path.join(tmp, 'forced-'));
    scenario(dir, 'forced', 2048, turns);
    try {
      const run = runCli(['eval', dir, '--json', '-m', model], { ...env, OLLAMA_HOST: url }, { timeoutMs: 120_000 });
      await server.waitForRequests(
        (records) => records.some((q) => q.path === '/api/chat' && q.turnIndex === 1 && q.slotAcquiredAt !== undefined),
        60_000,
      );
      const other = await fetch(`${url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({ model, messages: [], options: { num_ctx: 8192 } }),
      });
      expect(other.status).toBe(200);
      const r = await run;
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as {
        reloadsInMeasuredTurns: number;
        statistics: { run: { pathologies: Record<string, unknown> } };
      };
      // the stand-in reloaded the model for the third turn, a measured one
      const third = chats(server).find((q) => q.turnIndex === 2 && !isLoad(q));
      expect(loadOf(third!)).toEqual(expect.objectContaining({ cause: 'options_changed' }));
      const events = await reloadEvents(env.DATABASE_URL!);
      expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ model, measured: true })]));
      expect(report.reloadsInMeasuredTurns).toBe(1);
      expect(report.statistics.run.pathologies).toHaveProperty('model_reloaded');
    } finally {
      await server.stop();
    }
  });
});
