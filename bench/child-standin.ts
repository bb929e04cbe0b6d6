// A stand-in in its own process, so its request log and HTTP work stay out of the measured heap.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import type { StandinTurn } from '../src/standin/standin-script';

const BIN = path.join(__dirname, '..', '..', 'bin', 'loupe.js');

function toYamlTurn(t: StandinTurn): Record<string, unknown> {
  return {
    ...(t.content !== undefined ? { content: t.content } : {}),
    ...(t.toolCalls ? { tool_calls: t.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) } : {}),
  };
}

export async function startChildStandin(turns: StandinTurn[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-standin-'));
  const file = path.join(dir, 'bench.yaml');
  fs.writeFileSync(
    file,
    stringify({
      id: 'bench/child-standin',
      title: 'bench',
      spec: 'bench',
      prompt: 'bench',
      script: turns.map(toYamlTurn),
      expect: [{ termination: 'completed' }],
    }),
  );
  const standin = await startStandin(file, { loop: false });
  return {
    url: standin.url,
    stop: async () => {
      await standin.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `loupe standin` on a scenario file, in its own process; `loop` replays the script for every session. */
export async function startStandin(
  file: string,
  opts: { loop?: boolean } = {},
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const args = [BIN, 'standin', '--scenario', file, '--port', '0', ...(opts.loop === false ? [] : ['--loop'])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`stand-in exited (${code}): ${err}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
