// A regex expectation cannot hang an eval: a catastrophic pattern the load-time check cannot see
// fails its check with the reason once its time budget is spent, one it can see is refused at load,
// and the process answers Ctrl-C all the while (the match never runs on the main thread).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestDatabase } from '../support/test-app';
import { ROOT, runCli } from '../support/run-cli';

// ambiguous alternatives (ab = a then b) that the static check lets through: seconds at 24 pairs
const SLOW = '^(a|ab|b)*$';
const HOSTILE = `${'ab'.repeat(40)}!`;

const scenario = (regex: string) =>
  [
    'id: mine/regex-budget',
    'prompt: Say it.',
    'script:',
    `  - content: "${HOSTILE}"`,
    'expect:',
    '  - termination: completed',
    `  - final_answer: { regex: "${regex}" }`,
    '',
  ].join('\n');

describe('regex expectations with a time budget (built CLI)', () => {
  let tmp: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-regex-'));
    env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home'), OLLAMA_HOST: undefined };
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('fails the check whose regex overran its budget, naming it, and judges the rest', async () => {
    const file = path.join(tmp, 'slow.yaml');
    fs.writeFileSync(file, scenario(SLOW));
    const run = await runCli(['eval', file, '--json'], env, { timeoutMs: 120_000 });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { trials: Array<{ status: string; failedExpectations: unknown[] }> };
    expect(report.trials.length).toBeGreaterThan(0);
    for (const trial of report.trials) {
      expect(trial.status).toBe('failed');
      expect(JSON.stringify(trial.failedExpectations)).toContain(
        'regex /^(a|ab|b)*$/ exceeded its 250 ms budget on a 81-character text (it backtracks catastrophically)',
      );
      expect(JSON.stringify(trial.failedExpectations)).not.toContain('termination');
    }
  }, 120_000);

  it('refuses a pattern with nested quantifiers at load: exit 2, file, line and field', async () => {
    const file = path.join(tmp, 'nested.yaml');
    fs.writeFileSync(file, scenario('^(a+)+$'));
    const run = await runCli(['eval', file], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:7:28: expect[1].final_answer.regex: regex /^(a+)+$/ would hang a trial`);
    expect(run.stdout).toBe('');
  });

  it('answers SIGINT while it judges a catastrophic regex again and again', async () => {
    const judge = path.join(ROOT, 'dist', 'src', 'eval', 'expectations', 'evaluate-expectations.js');
    const script = `
      const { evaluateExpectations } = require(${JSON.stringify(judge)});
      const text = ${JSON.stringify(HOSTILE)};
      const session = { finalAnswer: text, events: [], hostEvents: [], messages: [], files: {} };
      process.on('SIGINT', () => { process.stdout.write('interrupted\\n'); process.exit(130); });
      let reported = false;
      const again = () => {
        const [r] = evaluateExpectations([{ final_answer: { regex: ${JSON.stringify(SLOW)} } }], session);
        if (!reported) process.stdout.write(\`judged: \${r.detail}\\n\`);
        reported = true;
        setImmediate(again);
      };
      again();`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('judged:')) resolve();
      });
      child.once('exit', () => reject(new Error(`exited before judging: ${out}${err}`)));
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(out).toContain('judged: final answer');
    expect(out).toContain('exceeded its 250 ms budget');
    expect(out).toContain('interrupted');
  }, 60_000);
});
