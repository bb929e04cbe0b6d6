// Simulated models end to end, through the built CLI on the embedded Postgres (no DATABASE_URL, no
// OLLAMA_HOST): `loupe eval -m sim:<persona>` serves each trial from its persona on a fresh stand-in
// following the scenario's plan, judges it by its success criteria and records the run as `sim`;
// trials of a cell differ under a sloppy persona, the same --seed gives the same trials, the shipped
// diligent persona passes the task suite's tasks, and each bad input stops everything with exit 2.
// `loupe personas` lists the personas and shows one as it is served.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { loadPersonaFile, parsePersonaYaml } from '../../src/sim/persona-file';
import { fallbackDataRoot } from '../../src/database/embedded/postgres-binaries';
import { loupeEnv } from '../support/loupe-process';
import { ROOT, runCli } from '../support/run-cli';

/** Three steps, then the answer; judged by what it leaves in the workspace. */
const TASK = `id: sim/copy-upper
title: Copy a note in capitals
prompt: Put the text of note.txt in upper case into NOTE.txt and tell me what it says.
workspace:
  files:
    note.txt: hello loupe
solution:
  calls:
    - { name: list_files, arguments: {} }
    - { name: read_file, arguments: { path: note.txt } }
    - { name: write_file, arguments: { path: NOTE.txt, content: HELLO LOUPE } }
  final_answer: NOTE.txt now says HELLO LOUPE.
success:
  - termination: completed
  - file: NOTE.txt
    contains: HELLO LOUPE
  - final_answer: { contains: HELLO }
`;

/** A task without a solution or a script: nothing for a persona to follow. */
const NO_PLAN = `id: sim/no-plan
prompt: Say hello.
success:
  - termination: completed
`;

/** Deviates often: repeats, promises, fake output, early answers, malformed calls. */
const SLOPPY = `description: deviates on most turns
family: qwen3
tool_calls: native
tokens_per_second: 50
prefill_tokens_per_second: 1200
context_length: 32768
behaviour:
  base: { repeat_last: 0.15, promise: 0.15, fake_output: 0.1, early_answer: 0.1, malformed_call: 0.1, unknown_tool: 0.05 }
  after_nudge: { promise: 0.2 }
`;

/** A probability over 1 (line 8). */
const BROKEN = `description: broken
family: llama3
tokens_per_second: 50
prefill_tokens_per_second: 1200
context_length: 32768
behaviour:
  base:
    repeat_last: 1.5
`;

interface TrialJson {
  scenarioId: string;
  model: string;
  trial: number;
  status: string;
  judgedBy: string;
  terminationReason: string | null;
  iterations: number;
  events: number;
}
interface ReportJson {
  runId: string;
  mode: string;
  seed: number;
  trials: TrialJson[];
}

/** What a trial did, as far as its outcome shows. */
const signature = (t: TrialJson) => `${t.status} ${t.terminationReason} ${t.iterations} iterations ${t.events} events`;

describe('simulated models (the built CLI, embedded Postgres)', () => {
  let tmp: string;
  let env: Record<string, string>;
  const file = (name: string) => path.join(tmp, name);
  const evalJson = async (args: string[]): Promise<ReportJson> => {
    const run = await runCli(['eval', ...args, '--json'], env, { timeoutMs: 240_000 });
    if (run.code !== 0 && run.code !== 1) throw new Error(`exit ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout) as ReportJson;
  };

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sim-'));
    fs.mkdirSync(file('personas'));
    fs.writeFileSync(file('personas/sloppy.yaml'), SLOPPY);
    fs.mkdirSync(file('broken'));
    fs.writeFileSync(file('broken/broken.yaml'), BROKEN);
    fs.writeFileSync(file('task.yaml'), TASK);
    fs.writeFileSync(file('no-plan.yaml'), NO_PLAN);
    // the personas' speeds without their waits: the figures, not the wall-clock time, are what is tested
    env = loupeEnv({ LOUPE_HOME: file('home'), LOUPE_SIM_TIME_SCALE: '0', LOUPE_PERSONAS_DIR: file('personas') });
  });
  afterAll(() => {
    // as root the embedded Postgres keeps the data of a home under a private temp dir in /var/tmp
    fs.rmSync(fallbackDataRoot(file('home')), { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('trials of a cell differ under a sloppy persona; the same --seed gives the same trials; judged by success, recorded as sim', async () => {
    const args = [file('task.yaml'), '-m', 'sim:sloppy', '-t', '8', '--seed', '11', '-c', '2'];
    const first = await evalJson(args);
    expect(first.mode).toBe('sim');
    expect(first.trials).toHaveLength(8);
    expect(new Set(first.trials.map((t) => t.judgedBy))).toEqual(new Set(['success']));
    const byTrial = (r: ReportJson) => Object.fromEntries(r.trials.map((t) => [t.trial, signature(t)]));
    // trials of one cell are independent draws: not all alike
    expect(new Set(Object.values(byTrial(first))).size).toBeGreaterThan(1);
    const again = await evalJson(args);
    expect(again.runId).not.toBe(first.runId);
    expect(byTrial(again)).toEqual(byTrial(first));
  });

  it('the shipped diligent persona passes the task suite', async () => {
    const report = await evalJson([path.join(ROOT, 'scenarios', 'tasks'), '-m', 'sim:diligent', '--seed', '1', '-c', '2']);
    expect(report.trials.length).toBeGreaterThanOrEqual(20);
    const failed = report.trials.filter((t) => t.status !== 'passed').map((t) => `${t.scenarioId}: ${signature(t)}`);
    expect(failed).toEqual([]);
  });

  it.each([
    [
      'an unknown persona (the known ones and a close match)',
      ['-m', 'sim:slopy'],
      /unknown persona "slopy"; did you mean "sloppy"\? \(known: .*diligent.*sloppy/,
    ],
    [
      'a persona file error (file, line, field)',
      ['-m', 'sim:broken', '--personas', 'BROKEN'],
      /broken\.yaml:8:\d+: behaviour\.base\.repeat_last: a probability is at most 1/,
    ],
    ['a scenario without a solution', ['NO_PLAN', '-m', 'sim:sloppy'], /no-plan\.yaml: scenario sim\/no-plan has no solution to follow/],
  ])('%s: exit 2 before anything runs', async (_what, extra, message) => {
    const args = extra.map((a) => (a === 'BROKEN' ? file('broken') : a === 'NO_PLAN' ? file('no-plan.yaml') : a));
    const run = await runCli(['eval', file('task.yaml'), ...args], env, { timeoutMs: 60_000 });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/nothing was run/);
    expect(run.stderr).not.toMatch(/^run [0-9a-f-]{36}/m);
  });

  it('`loupe personas` lists the shipped and added personas; `show` prints one as it is served, readable as a persona file', async () => {
    const list = await runCli(['personas'], env);
    expect(list.code).toBe(0);
    for (const name of ['diligent', 'repetitive', 'fabricator', 'procrastinator', 'forgetful', 'sloppy-qwen3', 'sloppy'])
      expect(list.stdout).toMatch(new RegExp(`^sim:${name} `, 'm'));
    const show = await runCli(['personas', 'show', 'sim:sloppy'], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(file('personas/sloppy.yaml'));
    const shown = parsePersonaYaml(show.stdout, 'sloppy.yaml');
    const loaded = loadPersonaFile(file('personas/sloppy.yaml'));
    // every situation spelled out: those the file leaves out as base
    expect(shown).toEqual({
      ...loaded,
      behaviour: {
        ...loaded.behaviour,
        after_break: loaded.behaviour.base,
        after_denial: loaded.behaviour.base,
        after_error: loaded.behaviour.base,
      },
    });
    expect((parse(show.stdout) as { behaviour: Record<string, unknown> }).behaviour.after_nudge).toEqual({ promise: 0.2 });
    const unknown = await runCli(['personas', 'show', 'sloppy-qwen'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown persona "sloppy-qwen"; did you mean "sloppy-qwen3"\?/);
  });
});
