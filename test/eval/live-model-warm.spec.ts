// A live run warms each model before its trials' sessions start (the model's load is not a trial's
// latency), and sets the first trials up meanwhile instead of after it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { JournalService } from '../../src/journal/journal.service';
import { nowMs } from '../../src/standin/standin-go-json';
import type { StandinServer } from '../../src/standin/standin-server';
import { startStandin } from '../provider/provider-test-kit';
import { createTestApp, type TestApp } from '../support/test-app';

const MODEL = 'warm:1b';
const LOAD_MS = 300;

describe('a live run warms the model while its first trials set up', () => {
  let t: TestApp;
  let server: StandinServer;
  let dir: string;
  beforeAll(async () => {
    const standin = await startStandin({
      catalog: [
        { name: MODEL, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'], parallel: 2, loadMs: LOAD_MS },
      ],
      script: { turns: { '*': [{ content: 'The task is done.' }] }, loop: true },
    });
    server = standin.server;
    t = await createTestApp({ OLLAMA_HOST: standin.url });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-warm-'));
    fs.writeFileSync(
      path.join(dir, 'warm.yaml'),
      [
        'id: bench/warm',
        'title: single turn',
        'spec: bench',
        'prompt: Say done.',
        `model: ${MODEL}`,
        'script:',
        '  - content: The task is done.',
        'expect:',
        '  - termination: completed',
        'success:',
        '  - final_answer: { contains: done }',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await t.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('no trial asks the model anything before its load has finished, and the trials were set up during it', async () => {
    const trialStarts: number[] = [];
    const sub = t.app.get(JournalService).entries$.subscribe((e) => {
      if (e.kind === 'eval_trial' && e.row.status === 'running') trialStarts.push(nowMs());
    });
    try {
      const [scenario] = loadScenarios([path.join(dir, 'warm.yaml')], dir);
      const report = await t.app.get(ScenarioRunner).run([scenario], { trials: 2, concurrency: 2 });
      expect(report.mode).toBe('live');
      expect(report.trials.map((r) => r.status)).toEqual(['passed', 'passed']);
    } finally {
      sub.unsubscribe();
    }
    const chats = server.requests.filter((r) => r.path === '/api/chat');
    const loads = chats.filter((r) => (r.body as { messages?: unknown[] }).messages?.length === 0);
    const asks = chats.filter((r) => ((r.body as { messages?: unknown[] }).messages?.length ?? 0) > 0);
    expect(loads).toHaveLength(1);
    expect(asks).toHaveLength(2);
    const loaded = loads[0].finishedAt!;
    expect(loaded - loads[0].receivedAt).toBeGreaterThanOrEqual(LOAD_MS - 5);
    for (const a of asks) expect(a.receivedAt).toBeGreaterThanOrEqual(loaded);
    // the first trial started (its rows, workspace and tools) while the model was loading
    expect(trialStarts.length).toBe(2);
    expect(trialStarts[0]).toBeLessThan(loaded);
  });
});
