// Run comparison through the built CLI, on scripted runs whose outcomes the test sets: each case is
// one way the comparison used to mislead. A scenario here reads a flag file outside itself with
// run_command, so the same scenario file (the same hash) passes in one run and fails in the next;
// a recorded run replayed after the flag changed makes that cell error in the replay, as a replay
// miss does. The runs have their own random seeds, so their trials are independent (Fisher).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestDatabase } from '../support/test-app';
import { runCli, type CliResult } from '../support/run-cli';
import { once } from '../support/concurrency';

interface Row {
  level: string;
  key: string;
  status: string;
  reason?: string;
  a: { trials: number; passed: number; failed: number; errored: number };
  b: { trials: number; passed: number; failed: number; errored: number };
  test: string | null;
  pValue: number | null;
  holm: number | null;
  verdict: string | null;
}
interface Comparison {
  family: number;
  cells: Row[];
  run: Row;
  gate: { fires: boolean };
}

describe('loupe eval compare and --baseline (built CLI)', () => {
  let tmp: string;
  let env: Record<string, string>;
  let flagFile: string;
  const file = (name: string) => path.join(tmp, `${name}.yaml`);
  const setFlag = (v: 'GREEN' | 'RED') => fs.writeFileSync(flagFile, `${v}\n`);

  // the case marked concurrent starts before this describe's beforeAll runs: it awaits it itself
  const ready = once(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-compare-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    flagFile = path.join(tmp, 'flag');
    const write = (name: string, yaml: string) => fs.writeFileSync(file(name), yaml);
    write(
      'flag',
      `id: compare/flag\ntitle: Passes while the flag reads GREEN\nprompt: Read the flag.\ntools: [run_command]\n` +
        `config: { command_sandbox: none }\nscript:\n  - tool_calls: [{ name: run_command, arguments: { command: "cat ${flagFile}" } }]\n` +
        `  - content: Done.\nexpect:\n  - request: 2\n    contains: GREEN\n`,
    );
    write(
      'steady',
      'id: compare/steady\ntitle: Always passes\nprompt: Say hello.\nscript:\n  - content: Hello.\nexpect:\n  - final_answer_contains: Hello\n',
    );
    for (const n of ['extra1', 'extra2'])
      write(
        n,
        `id: compare/${n}\ntitle: Always fails\nprompt: Say hello.\nscript:\n  - content: Hello.\nexpect:\n  - final_answer_contains: Goodbye\n`,
      );
    write(
      'edited',
      'id: compare/edited\ntitle: Edited between runs\nprompt: Say hi.\nscript:\n  - content: Hi.\nexpect:\n  - final_answer_contains: Hi\n',
    );
    write(
      'profiled',
      'id: compare/profiled\ntitle: Written for two profiles\nprofile: [corvid, opencode]\nprompt: Say hi.\nscript:\n  - content: Hi.\nexpect:\n  - final_answer_contains: Hi\n',
    );
  });
  beforeAll(ready);
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function evalRun(args: string[]): Promise<{ cli: CliResult; runId: string; comparison?: Comparison }> {
    const cli = await runCli(['eval', ...args, '--json'], env, { timeoutMs: 120_000 });
    const report = JSON.parse(cli.stdout);
    return { cli, runId: report.runId, comparison: report.comparison?.result };
  }
  const compare = (args: string[]) => runCli(['eval', 'compare', ...args], env, { timeoutMs: 60_000 });
  const cellOf = (c: Comparison, id: string) => c.cells.find((r) => r.key.startsWith(`compare/${id}|`))!;

  it('calls 5/5 → 0/5 a regression (Fisher, unpaired), corrects for the family, and exits 1 on it', async () => {
    setFlag('GREEN');
    const a = await evalRun([file('flag'), file('steady'), '-t', '5']);
    expect(a.cli.code).toBe(0);
    setFlag('RED');
    const b = await evalRun([file('flag'), file('steady'), '-t', '5', '--baseline', a.runId]);
    // the gate: a regression that survives Holm's correction
    expect(b.cli.code).toBe(1);
    expect(b.cli.stderr).toMatch(/^REGRESSION cell compare\/flag\|llama3\.1:8b\|: 5\/5 .* → 0\/5 .*Holm p = 0\.024 over 3 tests\)$/m);
    expect(b.cli.stderr).toMatch(/^failing compare\/flag\|llama3\.1:8b\|: 5 failed — regressed \(significant after Holm\)$/m);
    const flag = cellOf(b.comparison!, 'flag');
    // independent runs: Fisher's exact test, p = 2 / C(10, 5) = 0.0079 before correction; paired by trial
    // number (McNemar) it would have been 0.0625, "no significant change"
    expect(flag).toMatchObject({ status: 'compared', test: 'fisher_exact', verdict: 'regressed' });
    expect(flag.pValue).toBeCloseTo(2 / 252, 10);
    // 2 cells and the run (its one model and configuration cover the same cells: the same test): Holm multiplies the smallest p by 3
    expect(b.comparison!.family).toBe(3);
    expect(flag.holm).toBeCloseTo(6 / 252, 10);

    const text = await compare([a.runId, b.runId]);
    expect(text.code).toBe(1);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'LEVEL',
      'KEY',
      `A ${a.runId.slice(0, 8)}`,
      `B ${b.runId.slice(0, 8)}`,
      'DIFF [95% CI]',
      'P',
      'HOLM',
      'Q (BH)',
      'TEST',
      'VERDICT',
    ]);
    expect(text.stdout).toMatch(
      /^cell +compare\/flag\|llama3\.1:8b\| +5\/5 .* 0\/5 .* -100\.0 pt \[-100\.0, -\d+\.\d\] +0\.0079 +0\.024 +\S+ +fisher +regressed$/m,
    );
    expect(lines.at(-1)).toBe(
      // by BH the run, model and configuration rows (one test, p = 0.0325, 10/10 → 5/10; q = 0.0325·3/2) are called too
      '1 regressed, 0 improved, 4 unchanged, 0 not compared (family of 3 tests over cells, models, configurations and the run, Holm α=0.05; by Benjamini–Hochberg q<0.05: 4 regressed, 0 improved)',
    );
    // the other way round it is an improvement: nothing to fail on
    const reverse = await compare([b.runId, a.runId]);
    expect(reverse.code).toBe(0);
    expect(reverse.stdout).toMatch(/^cell +compare\/flag\|.* improved$/m);
  }, 240_000);

  it('does not compare a cell that errored on one side, and leaves it out of the run row', async () => {
    setFlag('RED');
    const a = await evalRun([file('flag'), file('steady'), '-t', '5', '--record']);
    expect(a.cli.code).toBe(1); // the flag cell fails
    setFlag('GREEN');
    // the replay's second request now carries GREEN, which the recording does not hold: its trials error
    const b = await evalRun(['--replay', a.runId]);
    expect(b.cli.code).toBe(1);
    const json = await compare([a.runId, b.runId, '--json']);
    expect(json.code).toBe(0);
    const c = JSON.parse(json.stdout).comparison as Comparison;
    expect(cellOf(c, 'flag')).toMatchObject({
      status: 'not_compared',
      reason: 'no judged trial in B (5 errored)',
      verdict: null,
      pValue: null,
      a: expect.objectContaining({ failed: 5, errored: 0 }),
      b: expect.objectContaining({ failed: 0, errored: 5 }),
    });
    // A's five failures do not stay in A's denominator while B's errors leave B's: the run is the steady cell alone
    expect(c.run).toMatchObject({
      status: 'compared',
      verdict: 'no_significant_change',
      a: expect.objectContaining({ trials: 5, failed: 0 }),
    });
    const text = await compare([a.runId, b.runId]);
    expect(text.stdout).toMatch(
      /^cell +compare\/flag\|llama3\.1:8b\| +0\/5 .* 0\/0 – \+5 err +– .* not compared \(no judged trial in B \(5 errored\)\)$/m,
    );
    expect(text.stdout).not.toMatch(/^(run|config|model|cell) .* improved$/m);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^0 regressed, 0 improved, 4 unchanged, 1 not compared /);
  }, 240_000);

  it('against a baseline: does not fail on pre-existing failures, new cells or a changed scenario, and lists them', async () => {
    setFlag('RED');
    const base = await evalRun([file('steady'), file('flag'), file('edited'), '-t', '3']);
    expect(base.cli.code).toBe(1);
    fs.writeFileSync(file('edited'), fs.readFileSync(file('edited'), 'utf8').replace('Say hi.', 'Say hi, please.'));
    const b = await evalRun([
      file('steady'),
      file('flag'),
      file('edited'),
      file('extra1'),
      file('extra2'),
      '-t',
      '3',
      '--baseline',
      base.runId,
    ]);
    // 9 failed trials, none a regression against the baseline
    expect(b.cli.stderr).not.toMatch(/REGRESSION/);
    expect(b.cli.stderr).toMatch(/^failing compare\/flag\|llama3\.1:8b\|: 3 failed — pre-existing \(failed in the baseline too\)$/m);
    expect(b.cli.stderr).toMatch(/^failing compare\/extra1\|llama3\.1:8b\|: 3 failed — new \(not in the baseline\)$/m);
    expect(b.cli.stderr).toMatch(
      /^Compared with baseline \S+: 0 regressed, 0 improved, 5 unchanged, 3 not compared \(family of 3 tests .*\)$/m,
    );
    expect(b.cli.code).toBe(0);
    expect(b.comparison!.gate.fires).toBe(false);
    expect(cellOf(b.comparison!, 'extra1')).toMatchObject({ status: 'only_in_b', verdict: null, test: null });
    expect(cellOf(b.comparison!, 'edited')).toMatchObject({ status: 'changed', reason: 'scenario file changed', verdict: null });
    // the run row holds the matched cells only: steady and flag, 6 trials a side
    expect(b.comparison!.run).toMatchObject({ a: expect.objectContaining({ trials: 6 }), b: expect.objectContaining({ trials: 6 }) });

    const text = await compare([base.runId, b.runId]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^cell +compare\/edited\|.* changed, not compared \(scenario file changed\)$/m);
    expect(text.stdout).toMatch(/^cell +compare\/extra2\|llama3\.1:8b\| +– +0\/3 .* only in B$/m);
  }, 240_000);

  // reads no flag file: side by side with the cases that flip it
  it.concurrent(
    'names the columns by profile, and refuses bad input with exit 2',
    async () => {
      await ready();
      const run = await evalRun([file('profiled'), '--set', 'profile=corvid,opencode', '-t', '2']);
      expect(run.cli.code).toBe(0);
      const text = await compare([run.runId, '--profiles', 'corvid,opencode']);
      expect(text.code).toBe(0);
      expect(
        text.stdout
          .split('\n')[0]
          .split(/\s{2,}/)
          .slice(2, 4),
      ).toEqual(['A corvid', 'B opencode']);
      expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^0 regressed, 0 improved, 4 unchanged, 0 not compared \(family of 1 test /);

      const malformed = await compare(['not-a-run', run.runId]);
      expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringMatching(/not-a-run: not a run id/)]);
      const unknown = await compare([run.runId, '00000000-0000-4000-8000-000000000000']);
      expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/no eval run 00000000-0000-4000-8000-000000000000/)]);
      const other = await evalRun([file('steady')]);
      const disjoint = await compare([run.runId, other.runId]);
      expect([disjoint.code, disjoint.stderr]).toEqual([
        2,
        expect.stringMatching(/have no cell in common to compare .*: 2 only in A, 1 only in B, 0 changed/),
      ]);
    },
    240_000,
  );
});
