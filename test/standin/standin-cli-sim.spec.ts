// `loupe standin --sim <persona>` (the built CLI, its own process): beside the scenario's script it
// serves sim:<persona>, answering from the persona's policy over the scenario's solution, as an eval
// trial's stand-in does; bad input is refused with exit 2 before anything listens.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ollama } from 'ollama';
import { ROOT, runCli } from '../support/run-cli';

const BIN = path.join(ROOT, 'bin', 'loupe.js');
const SCENARIO = [
  'id: t/standin-sim',
  'prompt: What does a.txt say?',
  // what other models get: the persona follows the solution instead
  'script:',
  '  - content: scripted reply',
  'solution:',
  '  calls:',
  '    - { name: read_file, arguments: { path: a.txt } }',
  '  final_answer: It says hi.',
  'success:',
  '  - final_answer: { contains: hi }',
].join('\n');
const READ_FILE = {
  type: 'function',
  function: { name: 'read_file', description: 'read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
};

function startCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'standin', ...args, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`stand-in exited (${code}): ${err}`)));
  });
}

describe('loupe standin --sim', () => {
  let dir: string;
  let file: string;
  let running: ChildProcess | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-standin-sim-'));
    file = path.join(dir, 'scenario.yaml');
    fs.writeFileSync(file, SCENARIO);
  });
  afterAll(async () => {
    if (running && running.exitCode === null) {
      const exited = new Promise((r) => running!.once('exit', r));
      running.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves sim:<persona> from the scenario's solution, and the script to other models", async () => {
    const { child, url } = await startCli(['--scenario', file, '--sim', 'diligent']);
    running = child;
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: Array<{ name: string; details: { family: string } }> };
    expect(tags.models.find((m) => m.name === 'sim:diligent')?.details.family).toBe('qwen3');

    const client = new Ollama({ host: url });
    const messages = [{ role: 'user', content: 'What does a.txt say?' }];
    // diligent never deviates: its first turn is the solution's first call, then its answer
    const first = await client.chat({ model: 'sim:diligent', messages, tools: [READ_FILE] });
    expect(first.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([['read_file', { path: 'a.txt' }]]);
    const second = await client.chat({
      model: 'sim:diligent',
      messages: [...messages, first.message, { role: 'tool', content: 'hi' }],
      tools: [READ_FILE],
    });
    expect(second.message.content).toBe('It says hi.');
    expect((await client.chat({ model: 'llama3.1:8b', messages })).message.content).toBe('scripted reply');
  });

  it.each([
    [['--sim', 'diligent'], /--sim: .*give --scenario <file>/],
    [['--sim', 'no-such-persona', '--scenario', '<file>'], /no-such-persona/],
  ])('refuses %j with exit 2', async (args, message) => {
    const r = await runCli(['standin', ...args.map((a) => (a === '<file>' ? file : a)), '--port', '0'], {}, { timeoutMs: 30_000 });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
  });
});
