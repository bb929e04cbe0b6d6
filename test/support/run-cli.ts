import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `loupe` command (dist/, built by `npm test` / `npm install`) as a child process. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
  return new Promise((resolve, reject) => {
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) clean[k] = v;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: clean });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

/** Resolves with the URL a child process announces on stderr ("… listening on http://…"). */
export function waitForListening(child: import('node:child_process').ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      // eslint-disable-next-line no-control-regex -- the URL ends at an ANSI escape (colored logs)
      const m = /listening on (http:\/\/[^\s\u001b]+)/.exec(err);
      if (m) resolve(m[1].replace('[::1]', '127.0.0.1'));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
  });
}
