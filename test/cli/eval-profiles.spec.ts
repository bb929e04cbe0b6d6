// Loop profiles through the built CLI: the profile as a configuration axis (statistics per profile),
// each trial judged by the expectations of the profile it was written for and by its success
// criteria under another, the profile and its resolved settings recorded on the session, profiles
// compared within one run, and bad profile names refused with the closest one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli } from '../support/run-cli';

const DOOM = path.join(ROOT, 'scenarios', 'stream-processor', 'doom-loop-asks-permission.yaml');
const REPEAT = path.join(ROOT, 'scenarios', 'direct-process', 'repeat-detection-breaks-loop.yaml');
const NUDGE = path.join(ROOT, 'scenarios', 'nudges', 'promised-action.yaml');
/** a scenario written for two profiles (`profile: [corvid, loupe]`) */
const SAME_TOOL = path.join(ROOT, 'scenarios', 'loop-control', 'same-tool-break.yaml');

interface JsonTrial {
  scenarioId: string;
  configKey: string;
  profile: string;
  judgedBy: string;
  status: string;
  sessionId: string;
  terminationReason: string;
}

describe('loop profiles (built CLI)', () => {
  let tmp: string;
  let env: Record<string, string>;
  let db: Client;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-profiles-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("runs the profile as an axis, judges each trial by its own profile's script or by that profile's expectations, and records the profile", async () => {
    const run = await runCli(['eval', DOOM, REPEAT, NUDGE, '--set', 'profile=corvid,opencode', '-t', '2', '-c', '4', '--json'], env, {
      timeoutMs: 120_000,
    });
    const report = JSON.parse(run.stdout);
    expect(report.configurations.map((c: { key: string }) => c.key)).toEqual(['profile=corvid', 'profile=opencode']);
    const trials = report.trials as JsonTrial[];
    const of = (scenario: string, profile: string) => trials.filter((t) => t.scenarioId === scenario && t.profile === profile);
    // each scenario under the profile it was written for: its exact expectations
    expect(of('stream-processor/doom-loop-asks-permission', 'opencode').map((t) => [t.judgedBy, t.status])).toEqual([
      ['expect', 'passed'],
      ['expect', 'passed'],
    ]);
    // corvid breaks before the third identical call runs (its own list, expect_by_profile); the break is the same
    expect(of('direct-process/repeat-detection-breaks-loop', 'corvid').map((t) => [t.judgedBy, t.status, t.terminationReason])).toEqual([
      ['expect_by_profile', 'passed', 'repeat_break'],
      ['expect_by_profile', 'passed', 'repeat_break'],
    ]);
    // under another: that profile's own expectations (expect_by_profile). opencode does not see the
    // repeats across replies, so the model gets its fourth turn and answers
    for (const t of of('direct-process/repeat-detection-breaks-loop', 'opencode'))
      expect([t.judgedBy, t.status, t.terminationReason]).toEqual(['expect_by_profile', 'passed', 'completed']);
    // without corvid's nudge the scripted model stops before reading the file, as opencode's list states
    expect(of('nudges/promised-action', 'opencode').map((t) => [t.judgedBy, t.status])).toEqual([
      ['expect_by_profile', 'passed'],
      ['expect_by_profile', 'passed'],
    ]);
    expect(run.code).toBe(0);

    // statistics per profile, with intervals; pathologies differ by profile
    const configs = report.statistics.configs as Array<{
      key: string;
      summary: { trials: number; passRate: { lo: number; hi: number }; pathologies: Record<string, { successes: number }> };
    }>;
    const corvid = configs.find((c) => c.key === 'profile=corvid')!;
    const opencode = configs.find((c) => c.key === 'profile=opencode')!;
    expect([corvid.summary.trials, opencode.summary.trials]).toEqual([6, 6]);
    // corvid breaks on the three identical calls whether they come in three replies or one
    expect(corvid.summary.pathologies.repeat_break.successes).toBe(4);
    expect(opencode.summary.pathologies.repeat_break).toBeUndefined();
    expect(opencode.summary.pathologies.doom_loop_asked.successes).toBe(2);
    expect(corvid.summary.pathologies['nudge.promisedAction'].successes).toBe(2);

    // the session records its profile and every setting it resolved to
    const sessionId = of('stream-processor/doom-loop-asks-permission', 'opencode')[0].sessionId;
    const [started] = (await db.query(`SELECT payload FROM events WHERE session_id = $1 AND type = 'session_started'`, [sessionId])).rows;
    expect(started.payload.settings).toEqual(
      expect.objectContaining({
        profile: 'opencode',
        repeatScope: 'reply',
        doomLoop: 'ask',
        onRejection: 'stop',
        retrySchedule: 'opencode',
        epilogue: 'none',
      }),
    );
    const stored = (
      await db.query(`SELECT DISTINCT config_key FROM eval_cells WHERE run_id = $1 ORDER BY config_key`, [report.runId])
    ).rows.map((r) => r.config_key);
    expect(stored).toEqual(['profile=corvid', 'profile=opencode']);

    // two profiles of one run, compared as two runs are, cell by scenario × model; a trial's seed
    // depends on its configuration, so the profiles' trials do not pair (Fisher)
    const compare = await runCli(['eval', 'compare', report.runId, '--profiles', 'corvid,opencode', '--json'], env);
    expect(compare.code).toBe(0);
    const comparison = JSON.parse(compare.stdout);
    expect(comparison.baseline).toEqual({ profile: 'corvid' });
    expect(comparison.labels).toEqual({ a: 'corvid', b: 'opencode' });
    expect(comparison.comparison.run).toEqual(
      expect.objectContaining({
        test: 'fisher_exact',
        a: expect.objectContaining({ trials: 6 }),
        b: expect.objectContaining({ trials: 6 }),
      }),
    );
    const self = await runCli(['eval', 'compare', report.runId], env);
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/compare a run with itself only with --profiles/);
  }, 240_000);

  it('runs a scenario under each profile it names', async () => {
    const run = await runCli(['eval', SAME_TOOL, '--json'], env, { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const trials = JSON.parse(run.stdout).trials as JsonTrial[];
    expect(trials.map((t) => [t.configKey, t.profile, t.judgedBy, t.status])).toEqual([
      ['profile=corvid', 'corvid', 'expect', 'passed'],
      ['profile=loupe', 'loupe', 'expect', 'passed'],
    ]);
  }, 90_000);

  it('names the profile of each row in the table, and takes models as a comma list', async () => {
    const run = await runCli(['eval', SAME_TOOL, '-m', 'llama3.1:8b,qwen3:8b'], env, { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((l) => l.startsWith('SCENARIO'));
    expect(lines[header].split(/\s{2,}/)).toEqual(['SCENARIO', 'MODEL', 'PROFILE', 'RESULT', 'END', 'ITER', 'EVENTS', 'TIME']);
    const rows = lines.slice(header + 1, header + 5).map((l) => l.split(/\s{2,}/).slice(1, 4));
    expect(rows).toEqual([
      ['llama3.1:8b', 'corvid', 'pass'],
      ['llama3.1:8b', 'loupe', 'pass'],
      ['qwen3:8b', 'corvid', 'pass'],
      ['qwen3:8b', 'loupe', 'pass'],
    ]);
  }, 90_000);

  it('judges every trial by its success criteria with --judge success', async () => {
    const run = await runCli(['eval', NUDGE, '--set', 'profile=corvid,opencode', '--judge', 'success', '--json'], env, {
      timeoutMs: 60_000,
    });
    const trials = JSON.parse(run.stdout).trials as JsonTrial[];
    expect(trials.map((t) => [t.profile, t.judgedBy, t.status])).toEqual([
      ['corvid', 'success', 'passed'],
      ['opencode', 'success', 'failed'],
    ]);
    const bad = await runCli(['eval', NUDGE, '--judge', 'sometimes'], env);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/--judge sometimes: expected auto or success/)]);
  }, 90_000);

  it('refuses an unknown profile with the closest name, on the command line and in a scenario', async () => {
    const axis = await runCli(['eval', NUDGE, '--set', 'profile=opencod'], env);
    expect(axis.code).toBe(2);
    expect(axis.stderr).toMatch(/--set profile=opencod/);
    const file = path.join(tmp, 'bad-profile.yaml');
    fs.writeFileSync(
      file,
      [
        'id: bad/profile',
        'title: t',
        'spec: s',
        'profile: [corvid, gemni-cli]',
        'prompt: p',
        'script:',
        '  - content: done.',
        'expect:',
        '  - termination: completed',
        '',
      ].join('\n'),
    );
    const scenario = await runCli(['eval', file], env);
    expect(scenario.code).toBe(2);
    expect(scenario.stderr).toMatch(/bad-profile\.yaml:4:\d+: profile\[1\]: unknown loop profile "gemni-cli"; did you mean "gemini-cli"\?/);
    const listed = await runCli(['profiles', '--json'], env);
    expect(JSON.parse(listed.stdout).map((p: { name: string }) => p.name)).toEqual([
      'loupe',
      'corvid',
      'opencode',
      'dexto',
      'mcp-agent',
      'gemini-cli',
    ]);
  }, 90_000);
});
