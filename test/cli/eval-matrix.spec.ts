// The eval as an instrument, through the built CLI: a matrix of configurations × trials with
// statistics, the reports (JSON, JUnit, Markdown), what each trial ran against, run comparison and
// baseline gating, spec coverage, and a live run against a model that is not scripted.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli, waitForListening } from '../support/run-cli';

const LOOP = path.join(ROOT, 'scenarios', 'loop-control');
const MAX_ITER = path.join(LOOP, 'max-iterations.yaml');
const REPEAT = path.join(ROOT, 'scenarios', 'direct-process', 'repeat-detection-breaks-loop.yaml');

describe('loupe eval as an instrument (built CLI)', () => {
  let tmp: string;
  let env: Record<string, string>;
  let db: Client;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-matrix-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs scenarios × configurations × trials and reports statistics with intervals, in JSON, JUnit and Markdown', async () => {
    const junit = path.join(tmp, 'r.xml');
    const markdown = path.join(tmp, 'r.md');
    const run = await runCli(
      [
        'eval',
        MAX_ITER,
        REPEAT,
        '-t',
        '3',
        '-c',
        '4',
        '--set',
        'max_tool_iterations=4,25',
        '--json',
        '--junit',
        junit,
        '--markdown',
        markdown,
      ],
      env,
      { timeoutMs: 120_000 },
    );
    // max-iterations.yaml expects the cap it sets; at 25 it is not reached: those 3 trials fail.
    // max-iterations.yaml is written for two profiles (corvid, loupe) and runs under both; the repeat
    // scenario for loupe (corvid's own list judges it elsewhere): 3 cells of 2 configurations × 3 trials
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.configurations.map((c: { key: string }) => c.key)).toEqual(['max_tool_iterations=4', 'max_tool_iterations=25']);
    expect(report.summary).toEqual(expect.objectContaining({ trials: 18, notRun: 0 }));
    const cells = report.statistics.cells as Array<{
      key: string;
      summary: { passed: number; trials: number; passRate: { rate: number; lo: number; hi: number }; passHatK: Record<string, number> };
    }>;
    expect(cells).toHaveLength(6);
    for (const c of cells) {
      expect(c.summary.trials).toBe(3);
      expect(c.summary.passRate.lo).toBeLessThanOrEqual(c.summary.passRate.rate);
      expect(c.summary.passRate.hi).toBeGreaterThanOrEqual(c.summary.passRate.rate);
    }
    const maxAt25 = cells.find((c) => c.key === 'loop-control/max-iterations|llama3.1:8b|profile=corvid,max_tool_iterations=25')!;
    expect(maxAt25.summary).toEqual(expect.objectContaining({ passed: 0, passHatK: expect.objectContaining({ 3: 0 }) }));
    // Wilson 95% for 3/3: [0.4385, 1]
    const repeatAt3 = cells.find((c) => c.key.startsWith('direct-process/repeat-detection-breaks-loop') && c.key.endsWith('=4'))!;
    expect(repeatAt3.summary.passRate.lo).toBeCloseTo(0.4385, 3);
    expect(report.statistics.run.pathologies.repeat_break).toEqual(expect.objectContaining({ successes: 6 }));

    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites[^>]* tests="6" failures="2"/);
    expect(xml).toContain('classname="loop-control/max-iterations" name="llama3.1:8b [profile=corvid,max_tool_iterations=25]"');
    // columns in configuration order (sorted): the loupe-only repeat scenario's key names no profile
    expect(fs.readFileSync(markdown, 'utf8')).toMatch(/\| `loop-control\/max-iterations` \| – \| – \| 0\/3 ✗ \| 3\/3 \| 0\/3 ✗ \| 3\/3 \|/);

    const stored = await db.query(
      `SELECT key, trials, passed, statistics->'passRate'->>'lo' AS lo FROM eval_cells WHERE run_id = $1 ORDER BY key`,
      [report.runId],
    );
    expect(stored.rows).toHaveLength(6);
    const [runRow] = (await db.query(`SELECT config, statistics FROM eval_runs WHERE id = $1`, [report.runId])).rows;
    expect(runRow.config).toEqual(
      expect.objectContaining({ mode: 'scripted', trialsPerCell: 3, loupeRevision: expect.stringMatching(/^[0-9a-f]{40}|^v/) }),
    );
    expect(runRow.statistics.run.trials).toBe(18);
    // what can move a trial's score is on every trial
    const trials = (await db.query(`SELECT config_key, metadata, outcome FROM eval_trials WHERE run_id = $1`, [report.runId])).rows;
    expect(trials).toHaveLength(18);
    for (const t of trials) {
      expect(t.metadata).toEqual(
        expect.objectContaining({
          scenarioHash: expect.stringMatching(/^[0-9a-f]{64}$/),
          toolSchemaHash: expect.stringMatching(/^[0-9a-f]{64}$/),
          systemPromptHash: expect.stringMatching(/^[0-9a-f]{64}$/),
          model: 'llama3.1:8b',
          modelDigest: expect.stringMatching(/^[0-9a-f]{12,}/),
          ollamaVersion: expect.any(String),
          loupeRevision: expect.any(String),
          settings: expect.objectContaining({ maxToolIterations: Number(/max_tool_iterations=(\d+)/.exec(t.config_key)![1]) }),
        }),
      );
      expect(t.outcome).toEqual(
        expect.objectContaining({ tokens: expect.any(Object), latency: expect.objectContaining({ workingMs: expect.any(Number) }) }),
      );
    }
  }, 180_000);

  it('compares two runs with a paired test and gates on a significant regression against a baseline', async () => {
    const base = JSON.parse((await runCli(['eval', LOOP, '-t', '2', '-c', '8', '--json'], env, { timeoutMs: 120_000 })).stdout);
    const worse = await runCli(
      ['eval', LOOP, '-t', '2', '-c', '8', '--json', '--baseline', base.runId, '--set', 'max_tool_iterations=4'],
      env,
      { timeoutMs: 120_000 },
    );
    // a different configuration: no cell matches the baseline (the configuration is part of a cell),
    // so the baseline excuses none of its failures and nothing is compared
    expect(worse.code).toBe(1);
    expect(worse.stderr).toMatch(/no cell matches the baseline/);
    expect(worse.stderr).not.toMatch(/REGRESSION/);
    const again = await runCli(['eval', LOOP, '-t', '2', '-c', '8', '--json', '--baseline', base.runId], env, { timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    const comparison = JSON.parse(again.stdout).comparison.result;
    // same scenarios, model and configuration; each run has its own seed, so the trials are independent: unchanged
    expect(comparison.run).toEqual(expect.objectContaining({ test: 'fisher_exact', verdict: 'no_significant_change' }));

    const compare = await runCli(['eval', 'compare', base.runId, JSON.parse(worse.stdout).runId], env);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/have no cell in common to compare/);
    const missing = await runCli(['eval', 'compare', base.runId, '00000000-0000-0000-0000-000000000000'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no eval run 00000000/);
  }, 240_000);

  it('refuses a configuration axis it does not know, naming the closest key', async () => {
    const bad = await runCli(['eval', MAX_ITER, '--set', 'max_tool_iteration=3'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/did you mean "max_tool_iterations"/);
  });

  it("lists the specs' Behavioral Examples with their scenarios", async () => {
    const coverage = await runCli(['eval', '--coverage'], env);
    expect(coverage.code).toBe(0);
    expect(coverage.stdout).toMatch(
      /✓ direct-process\.spec\.md — Normal tool loop completion: direct-process\/normal-tool-loop-completion/,
    );
    expect(coverage.stdout).toMatch(/12 of 12 Behavioral Examples have a scenario/);
    const partial = await runCli(['eval', path.join(ROOT, 'scenarios', 'direct-process'), '--coverage'], env);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toMatch(/✗ ollama-provider\.spec\.md — Retry on transient error: no scenario/);
  });

  it('runs against a real (unscripted) model with the success criteria and the invariants', async () => {
    // a model that answers from its own script, not the scenario's: the exact expectations cannot apply
    const script = path.join(tmp, 'model.yaml');
    fs.writeFileSync(
      script,
      [
        'id: model',
        'title: model',
        'spec: test',
        'prompt: x',
        'script:',
        '  - tool_calls: [{ name: write_file, arguments: { path: out.txt, content: "hello world" } }]',
        '  - content: I wrote hello world to out.txt.',
        'expect:',
        '  - termination: completed',
        '',
      ].join('\n'),
    );
    const scenario = path.join(tmp, 'live.yaml');
    fs.writeFileSync(
      scenario,
      [
        'id: live/write-hello',
        'title: Write hello',
        'spec: test',
        'prompt: Write hello world to out.txt.',
        'script:',
        '  - content: never used live',
        'expect:',
        '  - final_answer_contains: never used live',
        'success:',
        '  - file: out.txt',
        '    contains: hello',
        '  - tools_used: [write_file]',
        '  - final_answer: { regex: "out\\\\.txt" }',
        '  - iterations: { max: 5 }',
        '',
      ].join('\n'),
    );
    const ollama = spawn(process.execPath, [path.join(ROOT, 'bin', 'loupe.js'), 'standin', '--scenario', script, '--port', '0', '--loop']);
    try {
      const url = await waitForListening(ollama);
      const run = await runCli(['eval', scenario, '-t', '2', '--json'], { ...env, OLLAMA_HOST: url }, { timeoutMs: 120_000 });
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.mode).toBe('live');
      expect(report.summary).toEqual(expect.objectContaining({ passed: 2 }));
      expect(report.trials[0].invariantViolations).toEqual([]);
    } finally {
      ollama.kill('SIGTERM');
    }
  }, 180_000);
});
