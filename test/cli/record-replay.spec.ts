// Record and replay through the built CLI (issue 14): a recorded run replays to the same journal
// events for every trial — from the run in the same database and from an exported file imported into
// a fresh one; a request the recording does not hold fails its trial loudly, or with --allow-new goes
// to OLLAMA_HOST and is recorded; repeated trials keep their own responses; a recording becomes
// scripted scenarios that pass.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { StandinServer } from '../../src/standin/standin-server';
import { concurrentCases, once } from '../support/concurrency';
import { firstDivergence, runSignatures, type SessionSignature } from '../support/event-signature';
import { ROOT, runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const S = (f: string) => path.join(ROOT, 'scenarios', f);
/** Together: nudges, a repeat break, a trim, a compaction, a 503 retry, a malformed line and a stall, a dropped stream. */
const SUITE = [
  S('nudges/promised-action.yaml'),
  S('direct-process/repeat-detection-breaks-loop.yaml'),
  S('context/trim-message-count.yaml'),
  S('context/compaction-success.yaml'),
  S('ollama-provider/retry-on-transient-error.yaml'),
  S('ollama-provider/non-fatal-fault-consumes-turn.yaml'),
];

const DROPPED = `id: rr/dropped-stream
title: A stream dropped mid-reply is retried
spec: ollama-provider.spec.md#error-cases
profile: [loupe]
prompt: Say hello.
script:
  - content: Hello after the stream was cut.
    fault: { kind: disconnect, after_chunks: 2, times: 1 }
expect:
  - termination: completed
  - final_answer_contains: Hello after the stream was cut.
`;

/** One turn whose first byte comes after 1.2 s: --replay-pace recorded must wait for it again. */
const PACED = `id: rr/paced
title: A slow first byte
spec: ollama-provider.spec.md#error-cases
profile: [loupe]
prompt: Say hello.
script:
  - content: Hello, slowly.
    fault: { kind: delay_first_byte, ms: 1200 }
expect:
  - termination: completed
  - final_answer_contains: Hello, slowly.
`;

/** The same scenario id, asking something else: the loop's first request is not in the recording. */
const PACED_CHANGED = PACED.replace('prompt: Say hello.', 'prompt: Say hello in French.')
  .replace('  - final_answer_contains: Hello, slowly.\n', '  - final_answer_contains: Bonjour\n')
  .replace('    fault: { kind: delay_first_byte, ms: 1200 }\n', '');

const ONE_TURN = `id: rr/repeated
title: The same request in every trial
spec: ollama-provider.spec.md#error-cases
profile: [loupe]
prompt: Say hello.
script:
  - content: Hello from the script.
expect:
  - termination: completed
  - final_answer_contains: Hello
`;

const json = (stdout: string) =>
  JSON.parse(stdout) as { runId: string; replayOf: string | null; summary: Record<string, number>; trials: TrialJson[] };
interface TrialJson {
  scenarioId: string;
  trial: number;
  configKey: string;
  status: string;
  durationMs: number;
  sessionId: string;
  error: string | null;
  failedExpectations: unknown[];
}

function expectSameSessions(recorded: Map<string, SessionSignature>, replayed: Map<string, SessionSignature>): void {
  expect([...replayed.keys()].sort()).toEqual([...recorded.keys()].sort());
  const differing: string[] = [];
  for (const [key, sig] of recorded) {
    const other = replayed.get(key)!;
    // per trial: the same event types in order, then the same decision payloads
    expect({ key, types: other.types }).toEqual({ key, types: sig.types });
    const d = firstDivergence(sig, other);
    if (d) differing.push(d);
  }
  expect(differing).toEqual([]);
}

describe('loupe eval --record / --replay / export / import (the built CLI)', () => {
  let tmp: string;
  let env: Record<string, string | undefined>;
  let fresh: Record<string, string | undefined>;
  let db: Client;
  let freshDb: Client;
  let recordedRun: string;
  let recorded: Map<string, SessionSignature>;
  const dirs: Record<string, string> = {};

  // the cases marked concurrent start before this describe's beforeAll runs: they await it themselves
  const ready = once(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rr-'));
    for (const [name, text] of Object.entries({ dropped: DROPPED, paced: PACED, changed: PACED_CHANGED, repeated: ONE_TURN })) {
      dirs[name] = path.join(tmp, name);
      fs.mkdirSync(dirs[name]);
      fs.writeFileSync(path.join(dirs[name], `${name}.yaml`), text);
    }
    const base = { OLLAMA_HOST: undefined, LOUPE_RETRY_DELAY_SCALE: undefined };
    env = { ...base, DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    fresh = { ...base, DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home2') };
    db = new Client({ connectionString: env.DATABASE_URL });
    freshDb = new Client({ connectionString: fresh.DATABASE_URL });
    await db.connect();
    await freshDb.connect();
  });
  beforeAll(ready);
  // one lane beside the cases that run in order: on 2 cores more at once only slows the chain they wait on
  const concurrently = concurrentCases(1);
  afterAll(async () => {
    await db?.end();
    await freshDb?.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('records a run with nudges, breaks, trims, compaction and faults, repeated trials each with their own exchanges', async () => {
    const run = await runCli(['eval', ...SUITE, dirs.dropped, '-t', '2', '--record', '--json'], env, { timeoutMs: 120_000 });
    expect(run.stderr).not.toMatch(/ERROR/);
    expect(run.code).toBe(0);
    const report = json(run.stdout);
    expect(report.summary).toEqual(expect.objectContaining({ passed: 24, trials: 24, failed: 0, errored: 0 }));
    recordedRun = report.runId;
    recorded = await runSignatures(db, recordedRun);
    expect(recorded.size).toBe(24);
    const types = new Set([...recorded.values()].flatMap((s) => s.types));
    for (const t of ['nudge', 'repeat_break', 'trim', 'compaction', 'inference_retry', 'stream_malformed_line']) expect(types).toContain(t);

    const exchanges = (
      await db.query(
        `SELECT x.trial_index, x.kind, x.ending, x.status, x.model_digest, t.scenario_id, t.config_key
           FROM eval_exchanges x JOIN eval_trials t ON t.id = x.trial_id WHERE x.run_id = $1`,
        [recordedRun],
      )
    ).rows as Array<{
      trial_index: number;
      kind: string;
      ending: string;
      status: number | null;
      model_digest: string | null;
      scenario_id: string;
      config_key: string;
    }>;
    // every trial recorded its model calls, with the digest the host reported
    const trialsWithChats = new Set(
      exchanges.filter((x) => x.kind === 'chat').map((x) => `${x.scenario_id} ${x.config_key}#${x.trial_index}`),
    );
    expect(trialsWithChats.size).toBe(12 * 2);
    expect(exchanges.filter((x) => x.kind === 'chat').every((x) => x.model_digest)).toBe(true);
    // the faults as they crossed the wire: a 503, and a stream cut by the server
    expect(exchanges.some((x) => x.scenario_id === 'ollama-provider/retry-on-transient-error' && x.status === 503)).toBe(true);
    expect(exchanges.some((x) => x.scenario_id === 'rr/dropped-stream' && x.ending === 'dropped')).toBe(true);
  }, 150_000);

  it('--replay RUN reproduces every trial: the same journal events and decision payloads', async () => {
    const run = await runCli(['eval', '--replay', recordedRun, '--json'], env, { timeoutMs: 120_000 });
    expect(run.stderr).not.toMatch(/ERROR/);
    expect(run.code).toBe(0);
    const report = json(run.stdout);
    expect(report.summary).toEqual(expect.objectContaining({ passed: 24, trials: 24 }));
    expect(report.replayOf).toBe(recordedRun);
    expect(run.stderr + run.stdout).not.toContain('replay miss');
    expectSameSessions(recorded, await runSignatures(db, report.runId));
    // a replay reaches no model and records nothing of its own
    expect((await db.query(`SELECT count(*)::int AS n FROM eval_exchanges WHERE run_id = $1`, [report.runId])).rows[0].n).toBe(0);
  }, 150_000);

  it('export → import into a fresh database → --replay FILE reproduces every trial', async () => {
    const file = path.join(tmp, 'run.loupe.jsonl.gz');
    const exported = await runCli(['eval', 'export', recordedRun, '-o', file], env);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(new RegExp(`run ${recordedRun}: \\d+ exchanges exported`));
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    // the fresh database knows nothing of the run: the file brings it
    const replay = await runCli(['eval', '--replay', file, '--json'], fresh, { timeoutMs: 120_000 });
    expect(replay.stderr).toContain(`recorded run ${recordedRun}, imported`);
    expect(replay.code).toBe(0);
    const report = json(replay.stdout);
    expect(report.summary).toEqual(expect.objectContaining({ passed: 24, trials: 24 }));
    expectSameSessions(recorded, await runSignatures(freshDb, report.runId));

    const again = await runCli(['eval', 'import', file], fresh);
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(recordedRun);
    expect(again.stderr).toContain('was imported before');
  }, 150_000);

  // independent of the recorded run: side by side with the cases that replay it
  concurrently(
    'repeated trials of the same request get their own recorded responses (the trial index is in the key)',
    async () => {
      await ready();
      const rec = await runCli(['eval', dirs.repeated, '-t', '2', '--record', '--json'], env);
      expect(rec.code).toBe(0);
      const runId = json(rec.stdout).runId;
      const chats = (
        await db.query(`SELECT trial_index, request_hash FROM eval_exchanges WHERE run_id = $1 AND kind = 'chat' ORDER BY trial_index`, [
          runId,
        ])
      ).rows as Array<{ trial_index: number; request_hash: string }>;
      expect(chats.map((c) => c.trial_index)).toEqual([1, 2]);
      // the two trials sent the very same request…
      expect(chats[0].request_hash).toBe(chats[1].request_hash);
      // …and the model answered trial 2 differently (as a sampling model would)
      await db.query(
        `UPDATE eval_exchanges SET chunks = replace(chunks::text, 'Hello', 'Bye')::jsonb
        WHERE run_id = $1 AND kind = 'chat' AND trial_index = 2`,
        [runId],
      );
      const replay = await runCli(['eval', '--replay', runId, '--json'], env);
      const trials = json(replay.stdout).trials.sort((a, b) => a.trial - b.trial);
      expect(trials.map((t) => [t.trial, t.status])).toEqual([
        [1, 'passed'],
        [2, 'failed'],
      ]);
      expect(JSON.stringify(trials[1].failedExpectations)).toContain('final answer contains \\"Hello\\"');
      const answers = await Promise.all(
        trials.map(async (t) => {
          const show = await runCli(['sessions', 'show', t.sessionId, '--json'], env);
          const messages = JSON.parse(show.stdout).messages as Array<{ role: string; content: string }>;
          return messages.filter((m) => m.role === 'assistant').at(-1)?.content;
        }),
      );
      expect(answers).toEqual(['Hello from the script.', 'Bye from the script.']);
      // and the session comparison the replay tests rely on sees it (the answer's length): trial 1 the same, trial 2 not
      const before = await runSignatures(db, runId);
      const after = await runSignatures(db, json(replay.stdout).runId);
      const [k1, k2] = [...before.keys()].sort();
      expect(firstDivergence(before.get(k1)!, after.get(k1)!)).toBeNull();
      expect(firstDivergence(before.get(k2)!, after.get(k2)!)).toMatch(
        /#2: event \d+ \(session_finished\) payload: .*"finalAnswerChars":22.* vs .*"finalAnswerChars":20/,
      );
    },
    120_000,
  );

  describe('a small recording with a slow first byte', () => {
    let pacedRun: string;
    /** when the recorded reply's first byte came, ms after the request went out */
    let recordedFirstByteMs: number;
    beforeAll(async () => {
      const rec = await runCli(['eval', dirs.paced, '--record', '--json'], env);
      expect(rec.code).toBe(0);
      const report = json(rec.stdout);
      pacedRun = report.runId;
      const chat = await db.query(`SELECT headers_at_ms, chunks FROM eval_exchanges WHERE run_id = $1 AND kind = 'chat'`, [pacedRun]);
      expect(chat.rows).toHaveLength(1);
      recordedFirstByteMs = chat.rows[0].headers_at_ms;
      expect(recordedFirstByteMs).toBeGreaterThanOrEqual(1200);
      // the chunks came after the headers, each with its time
      const times = (chat.rows[0].chunks as Array<[number, string]>).map(([ms]) => ms);
      expect(times[0]).toBeGreaterThanOrEqual(recordedFirstByteMs);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }, 60_000);

    it('--replay-pace recorded follows the recorded timing; fast does not wait', async () => {
      const paced = await runCli(['eval', '--replay', pacedRun, '--replay-pace', 'recorded', '--json'], env);
      expect(paced.code).toBe(0);
      const pacedMs = json(paced.stdout).trials[0].durationMs;
      expect(pacedMs).toBeGreaterThanOrEqual(0.9 * recordedFirstByteMs);
      const fast = await runCli(['eval', '--replay', pacedRun, '--json'], env);
      expect(fast.code).toBe(0);
      expect(json(fast.stdout).trials[0].durationMs).toBeLessThan(0.75 * recordedFirstByteMs);
    }, 60_000);

    it('a request missing from the recording fails its trial loudly, naming the first difference', async () => {
      const run = await runCli(['eval', '--replay', pacedRun, dirs.changed], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('changed since run');
      const out = run.stdout + run.stderr;
      expect(out).toMatch(
        /request 1 of the session differs from the recording at messages\[\d+\]\.content: recorded "[^"]*Say hello\.", sent "[^"]*in French\."/,
      );
      expect(out).not.toMatch(/✓ rr\/paced/);
      expect(run.stdout).toContain(`(1 trials, replay of run ${pacedRun})`);
    }, 60_000);

    it('with --allow-new the miss goes to OLLAMA_HOST and is recorded', async () => {
      const host = new StandinServer({ script: { turns: { '*': [{ content: 'Bonjour !' }] }, whenExhausted: 'repeat_last' } });
      const { url } = await host.start();
      try {
        const run = await runCli(['eval', '--replay', pacedRun, dirs.changed, '--allow-new', '--json'], { ...env, OLLAMA_HOST: url });
        expect(run.stderr).not.toMatch(/ERROR/);
        expect(run.code).toBe(0);
        const report = json(run.stdout);
        expect(report.trials.map((t) => t.status)).toEqual(['passed']);
        const chats = (await db.query(`SELECT request, chunks FROM eval_exchanges WHERE run_id = $1 AND kind = 'chat'`, [report.runId]))
          .rows as Array<{ request: { messages: Array<{ content: string }> }; chunks: Array<[number, string]> }>;
        expect(chats).toHaveLength(1);
        expect(chats[0].request.messages.at(-1)!.content).toBe('Say hello in French.');
        expect(chats[0].chunks.map(([, t]) => t).join('')).toContain('Bonjour');
      } finally {
        await host.stop();
      }
    }, 60_000);
  });

  concurrently(
    'a run recorded against a real host (OLLAMA_HOST) replays without one, judged as it was',
    async () => {
      await ready();
      const host = new StandinServer({
        script: {
          turns: {
            '*': [
              { content: "I'll check the notes file now." },
              { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
              { content: 'It says to ship on Friday.' },
            ],
          },
          loop: true,
        },
      });
      const { url } = await host.start();
      let live: ReturnType<typeof json>;
      try {
        // one trial at a time: the host's script is one conversation after another
        const rec = await runCli(['eval', S('nudges/promised-action.yaml'), '-t', '2', '-c', '1', '--record', '--json'], {
          ...env,
          OLLAMA_HOST: url,
        });
        expect(rec.code).toBe(0);
        live = json(rec.stdout);
      } finally {
        await host.stop();
      }
      expect(live).toEqual(expect.objectContaining({ mode: 'live', summary: expect.objectContaining({ passed: 4, trials: 4 }) }));
      // the host is gone: everything comes from the recording
      const replay = await runCli(['eval', '--replay', live.runId, '--json'], env);
      expect(replay.code).toBe(0);
      const report = json(replay.stdout);
      expect(report).toEqual(expect.objectContaining({ mode: 'live', summary: expect.objectContaining({ passed: 4, trials: 4 }) }));
      expectSameSessions(await runSignatures(db, live.runId), await runSignatures(db, report.runId));
    },
    60_000,
  );

  concurrently(
    'bad input: a file that is not a recording, a run that was not recorded',
    async () => {
      await ready();
      const notRecording = path.join(tmp, 'not-a-recording.jsonl');
      fs.writeFileSync(notRecording, '{"hello":"world"}\n');
      const imp = await runCli(['eval', 'import', notRecording], env);
      expect(imp.code).toBe(2);
      expect(imp.stderr).toContain(`${notRecording}: not a Loupe recording`);
      const plain = await runCli(['eval', dirs.repeated, '--json'], env);
      const runId = json(plain.stdout).runId;
      const replay = await runCli(['eval', '--replay', runId], env);
      expect(replay.code).toBe(2);
      expect(replay.stderr).toContain(`run ${runId} was not recorded (run it with --record)`);
      const out = path.join(tmp, 'not-recorded.loupe.jsonl.gz');
      const exp = await runCli(['eval', 'export', runId, '-o', out], env);
      expect(exp.code).toBe(2);
      expect(exp.stderr).toContain(`run ${runId} was not recorded`);
      expect(fs.existsSync(out)).toBe(false);
      const nonsense = await runCli(['eval', '--replay', 'no-such-thing'], env);
      expect(nonsense.code).toBe(2);
      expect(nonsense.stderr).toContain('--replay no-such-thing: neither a recording file nor a run id');
    },
    60_000,
  );

  it('export --scenarios: recorded trials become scripted scenarios that load and pass', async () => {
    const out = path.join(tmp, 'exported');
    const exp = await runCli(['eval', 'export', recordedRun, '--scenarios', out], env);
    expect(exp.code).toBe(0);
    expect(exp.stderr).toContain(`24 scenario(s) written to ${out}`);
    const scenarios = loadScenarios([out]);
    expect(scenarios).toHaveLength(24);
    expect(scenarios.map((s) => s.id)).toContain('recorded/nudges/promised-action/llama3.1-8b/profile-loupe/t2');
    const run = await runCli(['eval', out, '--json'], env, { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(json(run.stdout).summary).toEqual(expect.objectContaining({ passed: 24, trials: 24, failed: 0, errored: 0 }));
  }, 150_000);
});
