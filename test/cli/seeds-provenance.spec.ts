// Seeds and provenance through the built CLI (issue 36): every model request of a trial carries a
// seed derived from the run seed, the cell and the trial index — the same in two runs given the same
// --seed, in a queued run's trials run by a worker, and in a resumed run's rerun trials; sampling
// keys are sent as Ollama options and recorded; each trial's provenance (full-length hashes, model
// digest, Ollama version, Loupe revision and diff hash, profile, settings, request options, seed) is
// in --json, the trial row, the JUnit report and the export file.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGunzip } from 'node:zlib';
import { Client } from 'pg';
import { trialSeed } from '../../src/eval/trials/trial-seed';
import { concurrentCases, once } from '../support/concurrency';
import { finishedLines, killHard, loupeEnv, spawnLoupe } from '../support/loupe-process';
import { untilOutput } from '../support/wait';
import { runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const READ = `id: seeds/read
title: Read a file, then answer
spec: direct-process.spec.md#x
profile: [loupe]
prompt: What does a.txt say?
workspace:
  files:
    a.txt: hello
script:
  - tool_calls: [{ name: read_file, arguments: { path: a.txt } }]
  - content: It says hello.
expect:
  - termination: completed
  - final_answer_contains: hello
`;

/** Its first byte comes late: a kill lands while it runs. */
const SLOW = `id: seeds/slow
title: A slow answer
spec: direct-process.spec.md#x
profile: [loupe]
prompt: Say hello.
script:
  - content: Hello, slowly.
    fault: { kind: delay_first_byte, ms: 2500 }
expect:
  - termination: completed
  - final_answer_contains: Hello
`;

const HEX64 = /^[0-9a-f]{64}$/;
const SAMPLING = ['temperature', 'top_p', 'top_k', 'min_p', 'repeat_penalty'];
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

interface TrialJson {
  scenarioId: string;
  model: string;
  configKey: string;
  trial: number;
  status: string;
  provenance: Record<string, unknown> | null;
}
interface ReportJson {
  runId: string;
  seed: number | null;
  summary: Record<string, number>;
  trials: TrialJson[];
}

const cellKey = (t: { scenarioId: string; configKey: string; trial: number }) => `${t.scenarioId} ${t.configKey} #${t.trial}`;

describe('seeds and provenance (the built CLI)', () => {
  let tmp: string;
  let env: Record<string, string>;
  let db: Client;
  const file = (name: string) => path.join(tmp, name);

  // the cases marked concurrent start before this describe's beforeAll runs: they await it themselves
  const ready = once(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-seeds-'));
    fs.writeFileSync(file('read.yaml'), READ);
    fs.writeFileSync(file('slow.yaml'), SLOW);
    env = loupeEnv({ DATABASE_URL: await createTestDatabase(), LOUPE_HOME: file('home') });
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  });
  beforeAll(ready);
  // one lane beside the cases that run in order: on 2 cores more at once only slows the chain they wait on
  const concurrently = concurrentCases(1);
  afterAll(async () => {
    await db?.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** The options of every chat request the stand-in received, per trial, as the recording proxy saw them cross the wire. */
  async function wireOptions(runId: string): Promise<Map<string, Array<Record<string, unknown>>>> {
    const rows = (
      await db.query(
        `SELECT t.scenario_id, t.config_key, t.trial_index, x.request->'options' AS options
           FROM eval_exchanges x JOIN eval_trials t ON t.id = x.trial_id
          WHERE x.run_id = $1 AND x.kind = 'chat' ORDER BY x.position`,
        [runId],
      )
    ).rows as Array<{ scenario_id: string; config_key: string; trial_index: number; options: Record<string, unknown> }>;
    const out = new Map<string, Array<Record<string, unknown>>>();
    for (const r of rows) {
      const key = cellKey({ scenarioId: r.scenario_id, configKey: r.config_key, trial: r.trial_index });
      out.set(key, [...(out.get(key) ?? []), r.options]);
    }
    return out;
  }

  /** The options each trial's session journaled with its model requests (inference_request events), per trial. */
  async function journaledOptions(runId: string): Promise<Map<string, Array<Record<string, unknown>>>> {
    const rows = (
      await db.query(
        `SELECT t.scenario_id, t.config_key, t.trial_index, e.payload->'options' AS options
           FROM events e JOIN sessions s ON s.id = e.session_id JOIN eval_trials t ON t.id = s.trial_id
          WHERE t.run_id = $1 AND e.type = 'inference_request' ORDER BY e.seq`,
        [runId],
      )
    ).rows as Array<{ scenario_id: string; config_key: string; trial_index: number; options: Record<string, unknown> }>;
    const out = new Map<string, Array<Record<string, unknown>>>();
    for (const r of rows) {
      const key = cellKey({ scenarioId: r.scenario_id, configKey: r.config_key, trial: r.trial_index });
      out.set(key, [...(out.get(key) ?? []), r.options]);
    }
    return out;
  }

  /** One seed per trial (every request of the trial carries it). */
  function seedsOf(options: Map<string, Array<Record<string, unknown>>>): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, list] of options) {
      const seeds = new Set(list.map((o) => o.seed));
      expect({ key, seeds: [...seeds] }).toEqual({ key, seeds: [expect.any(Number)] });
      out[key] = [...seeds][0] as number;
    }
    return out;
  }

  const expectedSeeds = (runSeed: number, trials: TrialJson[]) =>
    Object.fromEntries(trials.map((t) => [cellKey(t), trialSeed(runSeed, t)]));

  let seeded: ReportJson | undefined;

  it('two runs with --seed 42 send the same seed trial by trial; the trials carry complete, full-length provenance', async () => {
    const junit = file('run.xml');
    const args = ['eval', file('read.yaml'), '--seed', '42', '-t', '3', '--record', '--json'];
    const [first, second] = [await runCli([...args, '--junit', junit], env), await runCli(args, env)];
    for (const r of [first, second]) expect({ code: r.code, stderr: r.code ? r.stderr.slice(-2000) : '' }).toEqual({ code: 0, stderr: '' });
    const [a, b] = [JSON.parse(first.stdout) as ReportJson, JSON.parse(second.stdout) as ReportJson];
    seeded = a;
    expect([a.seed, b.seed]).toEqual([42, 42]);
    expect(a.runId).not.toBe(b.runId);

    // what the stand-in received: one seed per trial, the same in both runs, derived from 42 and the cell
    const [seedsA, seedsB] = [seedsOf(await wireOptions(a.runId)), seedsOf(await wireOptions(b.runId))];
    expect(Object.keys(seedsA)).toHaveLength(3);
    expect(seedsB).toEqual(seedsA);
    expect(seedsA).toEqual(expectedSeeds(42, a.trials));
    expect(new Set(Object.values(seedsA)).size).toBe(3);
    // unset sampling options are not sent
    for (const list of (await wireOptions(a.runId)).values())
      for (const o of list) for (const k of SAMPLING) expect(o).not.toHaveProperty(k);

    const scenarioHash = sha(READ);
    for (const t of a.trials) {
      const p = t.provenance!;
      expect(p).toEqual({
        scenarioHash,
        toolSchemaHash: expect.stringMatching(HEX64),
        systemPromptHash: expect.stringMatching(HEX64),
        promptHash: sha('What does a.txt say?'),
        modelDigest: expect.any(String),
        ollamaVersion: expect.any(String),
        loupeRevision: expect.any(String),
        loupeDiffHash: p.loupeDiffHash,
        profile: 'loupe',
        settings: expect.objectContaining({ profile: 'loupe', numCtx: expect.any(Number) }),
        requestOptions: expect.objectContaining({
          seed: seedsA[cellKey(t)],
          num_ctx: expect.any(Number),
          temperature: 'default',
          top_p: 'default',
        }),
        seed: seedsA[cellKey(t)],
      });
      // a dirty checkout names its diff (a full sha256), a clean one has none
      if (String(p.loupeRevision).endsWith('+dirty')) expect(p.loupeDiffHash).toMatch(HEX64);
      else expect(p.loupeDiffHash).toBeNull();
    }

    // the trial rows: provenance in the metadata, tool-schema hash and seed at its top level (comparisons pair by them)
    const rows = (
      await db.query(`SELECT trial_index, scenario_hash, metadata FROM eval_trials WHERE run_id = $1 ORDER BY trial_index`, [a.runId])
    ).rows as Array<{ trial_index: number; scenario_hash: string; metadata: Record<string, unknown> }>;
    for (const r of rows) {
      const t = a.trials.find((x) => x.trial === r.trial_index)!;
      expect(r.scenario_hash).toBe(scenarioHash);
      expect(r.metadata).toMatchObject({ ...t.provenance, toolSchemaHash: expect.stringMatching(HEX64), seed: seedsA[cellKey(t)] });
    }
    const config = (await db.query(`SELECT config FROM eval_runs WHERE id = $1`, [a.runId])).rows[0].config as Record<string, unknown>;
    expect(config.seed).toBe(42);

    // JUnit: the run seed, and the provenance of each testcase's trials
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toContain('<property name="seed" value="42"/>');
    const p = a.trials[0].provenance!;
    for (const [name, value] of [
      ['scenario_hash', scenarioHash],
      ['tool_schema_hash', p.toolSchemaHash],
      ['system_prompt_hash', p.systemPromptHash],
      ['prompt_hash', p.promptHash],
      ['model_digest', p.modelDigest],
      ['ollama_version', p.ollamaVersion],
      ['loupe_revision', p.loupeRevision],
      ['profile', 'loupe'],
    ])
      expect(xml).toContain(`<property name="provenance.${name}" value="${String(value)}"/>`);
    expect(xml).toContain('<property name="provenance.loupe_diff_hash"');
    expect(xml).toContain('<property name="provenance.request_options"');
    for (const t of a.trials) expect(xml).toContain(`<property name="provenance.seed.trial${t.trial}" value="${seedsA[cellKey(t)]}"/>`);

    // the export file carries the run seed and every trial's provenance
    const exported = file('run.loupe.jsonl.gz');
    expect((await runCli(['eval', 'export', a.runId, '-o', exported], env)).code).toBe(0);
    const lines = await gunzipLines(exported);
    expect(lines.find((l) => l.type === 'run')!.row.config).toMatchObject({ seed: 42 });
    const trialLines = lines.filter((l) => l.type === 'trial');
    expect(trialLines).toHaveLength(3);
    for (const l of trialLines) expect(l.row.metadata).toMatchObject(a.trials.find((t) => t.trial === l.row.trialIndex)!.provenance!);
  }, 120_000);

  // independent runs: side by side with the seeded runs the queued case compares with
  concurrently('--seed that is not an integer is bad input (exit 2), named', async () => {
    await ready();
    for (const bad of ['abc', '1.5', '-1']) {
      const r = await runCli(['eval', file('read.yaml'), '--seed', bad], env);
      expect({ bad, code: r.code }).toEqual({ bad, code: 2 });
      expect(r.stderr).toContain(`--seed: expected an integer from 0 to 2147483647, got "${bad}"`);
    }
  });

  concurrently(
    '--set temperature=0.2 is sent as options.temperature, journaled and recorded; without --seed a run seed is drawn and recorded',
    async () => {
      await ready();
      const r = await runCli(['eval', file('read.yaml'), '--set', 'temperature=0.2', '--record', '--json'], env);
      expect({ code: r.code, stderr: r.code ? r.stderr.slice(-2000) : '' }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(r.stdout) as ReportJson;
      expect(Number.isInteger(report.seed)).toBe(true);
      const config = (await db.query(`SELECT config FROM eval_runs WHERE id = $1`, [report.runId])).rows[0].config as Record<
        string,
        unknown
      >;
      expect(config.seed).toBe(report.seed);
      const [t] = report.trials;
      const seed = trialSeed(report.seed!, t);

      // on the wire: temperature sent, the other sampling options not
      const wire = [...(await wireOptions(report.runId)).values()].flat();
      expect(wire.length).toBeGreaterThanOrEqual(2);
      for (const o of wire) {
        expect(o).toMatchObject({ temperature: 0.2, seed });
        for (const k of SAMPLING.filter((k) => k !== 'temperature')) expect(o).not.toHaveProperty(k);
      }
      // journaled with each request, unsent ones as "default"
      const journaled = [...(await journaledOptions(report.runId)).values()].flat();
      expect(journaled).toHaveLength(wire.length);
      for (const o of journaled)
        expect(o).toMatchObject({
          temperature: 0.2,
          seed,
          top_p: 'default',
          top_k: 'default',
          min_p: 'default',
          repeat_penalty: 'default',
        });
      // and in the trial's provenance
      expect(t.configKey).toBe('temperature=0.2');
      expect(t.provenance).toMatchObject({
        seed,
        settings: { temperature: 0.2 },
        requestOptions: { temperature: 0.2, seed, top_p: 'default' },
      });
    },
    60_000,
  );

  it("a queued run's trials, run by a worker, send the seeds the same --seed gives a run here", async () => {
    const queued = await runCli(['eval', file('read.yaml'), '--seed', '42', '-t', '3', '--queue', '--json'], env);
    expect(queued.code).toBe(0);
    const { runId } = JSON.parse(queued.stdout) as { runId: string };
    const worker = await runCli(['worker', '--slots', '2', '--idle-exit', '1500'], env, { timeoutMs: 90_000 });
    expect(worker.code).toBe(0);
    const status = (await db.query(`SELECT status, config FROM eval_runs WHERE id = $1`, [runId])).rows[0];
    expect(status).toMatchObject({ status: 'finished', config: { seed: 42 } });
    const rows = (await db.query(`SELECT model, trial_index, metadata FROM eval_trials WHERE run_id = $1`, [runId])).rows as Array<{
      model: string;
      trial_index: number;
      metadata: Record<string, unknown>;
    }>;
    expect(rows).toHaveLength(3);
    const expected = Object.fromEntries(
      rows.map((r) => {
        const cell = { scenarioId: 'seeds/read', model: r.model, configKey: '', trial: r.trial_index };
        return [cellKey(cell), trialSeed(42, cell)];
      }),
    );
    // what the worker's trials sent: the seeds a run here with --seed 42 sends (the first test's)
    expect(seedsOf(await journaledOptions(runId))).toEqual(expected);
    if (seeded) expect(expected).toEqual(expectedSeeds(42, seeded.trials));
    for (const r of rows)
      expect(r.metadata).toMatchObject({
        seed: expected[cellKey({ scenarioId: 'seeds/read', configKey: '', trial: r.trial_index })],
        promptHash: sha('What does a.txt say?'),
        toolSchemaHash: expect.stringMatching(HEX64),
      });
  }, 120_000);

  concurrently(
    'a killed run resumed sends the seeds its trials were given, and reports every trial with its provenance',
    async () => {
      await ready();
      const child = spawnLoupe(['eval', file('read.yaml'), file('slow.yaml'), '--seed', '42', '-t', '2', '--json'], env);
      let runId: string | undefined;
      try {
        // the two read trials reported (so recorded): the slow one is under way
        await untilOutput(child, () => finishedLines(child.err()).length >= 2 || child.exitCode !== null, {
          what: 'the read trials',
          timeoutMs: 60_000,
        });
        runId = /^run ([0-9a-f-]{36}) /m.exec(child.err())?.[1];
      } finally {
        await killHard(child);
      }
      expect(runId).toBeDefined();
      const resumed = await runCli(['eval', 'resume', runId!, '--json'], env, { timeoutMs: 60_000 });
      expect({ code: resumed.code, stderr: resumed.code ? resumed.stderr.slice(-2000) : '' }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(resumed.stdout) as ReportJson;
      expect(report.seed).toBe(42);
      expect(report.summary).toMatchObject({ passed: 4, trials: 4 });
      const expected = expectedSeeds(42, report.trials);
      // every trial — kept from the killed process or run by the resume — carries its derived seed
      for (const t of report.trials)
        expect({ key: cellKey(t), seed: t.provenance?.seed }).toEqual({ key: cellKey(t), seed: expected[cellKey(t)] });
      // what the resumed trials sent (and the killed process's attempts too)
      const sent = seedsOf(await journaledOptions(runId!));
      for (const [key, seed] of Object.entries(sent)) expect({ key, seed }).toEqual({ key, seed: expected[key] });
      expect(Object.keys(sent).filter((k) => k.startsWith('seeds/slow'))).toHaveLength(2);
    },
    120_000,
  );
});

async function gunzipLines(file: string): Promise<Array<{ type: string; row: Record<string, unknown> & { trialIndex?: number } }>> {
  const chunks: Buffer[] = [];
  for await (const c of fs.createReadStream(file).pipe(createGunzip())) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
