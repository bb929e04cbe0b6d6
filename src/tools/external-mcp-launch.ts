// Starts a server process that serves MCP over Streamable HTTP and waits until its URL answers —
// for scenarios and tests that need an HTTP server of their own. Stopped with stop(); kill() is
// the abrupt end a scenario uses to test a server dying mid-session. The server leads its own
// process group (ended whole, whatever it started) and is tracked until it exits (child-registry.ts).
import { spawn } from 'node:child_process';
import { signalChild, trackChild } from '../common/children/child-registry';
import { toolLaunch } from './sandbox/tool-isolation-host';

export interface LaunchCommand {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface LaunchedServer {
  url: string;
  pid: number;
  stderrTail(): string;
  kill(signal?: NodeJS.Signals): void;
  stop(): Promise<void>;
}

export const LAUNCH_TIMEOUT_MS = 15_000;

/** Any HTTP answer counts (an MCP endpoint answers a bare GET with 400 or 405): the server is up. */
async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** `workspace`: the trial's, which the server may reach although LOUPE_HOME is hidden from it (tool-isolation.ts). */
export async function launchHttpServer(
  cmd: LaunchCommand,
  url: string,
  opts: { timeoutMs?: number; workspace?: string } = {},
): Promise<LaunchedServer> {
  // like a stdio server: inside the tool wrapper where it can run, with the variables its config names, not Loupe's
  const launch = toolLaunch([cmd.command, ...(cmd.args ?? [])], { env: cmd.env, cwd: cmd.cwd, workspace: opts.workspace });
  const child = spawn(launch.command, launch.args, { env: launch.env, cwd: cmd.cwd, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  trackChild(child, { group: true, command: [cmd.command, ...(cmd.args ?? [])].join(' ') });
  // a signal to the group (SIGTERM, then SIGKILL): a server's own children end with it
  const signal = (sig: NodeJS.Signals) => (child.pid ? signalChild({ pid: child.pid, group: true }, sig) : undefined);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4_000);
  });
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = signal ? `killed by ${signal}` : `exited with code ${code}`;
      resolve();
    });
    child.once('error', (e) => {
      exit = e.message;
      resolve();
    });
  });
  const server: LaunchedServer = {
    url,
    pid: child.pid ?? -1,
    stderrTail: () => stderr.trim(),
    kill: (sig = 'SIGKILL') => signal(sig),
    stop: async () => {
      if (exit) return;
      signal('SIGTERM');
      const late = setTimeout(() => signal('SIGKILL'), 3_000);
      await exited;
      clearTimeout(late);
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? LAUNCH_TIMEOUT_MS);
  while (!(await answers(url))) {
    if (exit || Date.now() > deadline) {
      await server.stop();
      const tail = stderr.trim() ? `; stderr: ${stderr.trim().slice(-500)}` : '';
      throw new Error(
        `MCP server ${[cmd.command, ...(cmd.args ?? [])].join(' ')} did not answer at ${url} (${exit ?? `not within ${opts.timeoutMs ?? LAUNCH_TIMEOUT_MS} ms`})${tail}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // an answer while the process is already gone came from someone else's server on that port
  if (exit) throw new Error(`MCP server ${[cmd.command, ...(cmd.args ?? [])].join(' ')} ${exit} before it served ${url}`);
  return server;
}
