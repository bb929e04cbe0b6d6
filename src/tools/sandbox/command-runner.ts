// Runs one launched command to its end and makes sure nothing it started outlives the call: on
// exit, timeout, abort or the output cap, the launcher's process group and the call's cgroup are
// SIGKILLed (with the sandbox, killing bwrap also ends its PID namespace, every process in it).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { CallCgroup } from './cgroup-limits';
import type { CommandLimits } from './command-limits';
import { emptyCommandResult, type CommandResult } from './command-result';
import { SETUP_FAILED_EXIT } from './launcher';
import { trackChild } from '../../common/children/child-registry';

export interface LaunchSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** written to descriptors 3, 4, … of the launcher, then closed (bwrap reads its options there) */
  fdData?: string[];
  limits: Pick<CommandLimits, 'timeoutMs' | 'outputBytes'>;
  cgroup?: CallCgroup;
  signal?: AbortSignal;
}

/** How long pipes may stay open after the launcher exits: only an escaped process could hold them. */
const DRAIN_GRACE_MS = 300;

function killGroup(child: ChildProcess): void {
  try {
    // detached: the launcher leads its own process group
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export async function runLaunched(spec: LaunchSpec): Promise<CommandResult> {
  const result = emptyCommandResult();
  if (spec.signal?.aborted) {
    await spec.cgroup?.remove();
    return { ...result, aborted: true };
  }
  const raw = await new Promise<CommandResult>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.argv[0], spec.argv.slice(1), {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', ...(spec.fdData ?? []).map(() => 'pipe' as const)],
      });
    } catch (e) {
      resolve({ ...result, startError: (e as Error).message });
      return;
    }
    // its group is ended if Loupe exits mid-call, and swept after a kill -9
    trackChild(child, { group: true, command: spec.argv.join(' ') });
    (spec.fdData ?? []).forEach((data, i) => {
      const stream = child.stdio[3 + i] as Writable | null;
      stream?.on('error', () => undefined); // the reader may be gone already (setup failed)
      stream?.end(data);
    });

    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const killTree = () => {
      killGroup(child);
      void spec.cgroup?.killAll();
    };
    const collect = (b: Buffer) => {
      const room = spec.limits.outputBytes - kept;
      if (room > 0) {
        chunks.push(b.subarray(0, room));
        kept += Math.min(room, b.length);
      }
      if (b.length > room) {
        result.truncatedBytes += b.length - Math.max(room, 0);
        if (!result.outputLimitHit) {
          result.outputLimitHit = true;
          killTree();
        }
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);

    const timer = setTimeout(() => {
      result.timedOut = true;
      killTree();
    }, spec.limits.timeoutMs);
    const onAbort = () => {
      result.aborted = true;
      killTree();
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    let drain: NodeJS.Timeout | undefined;
    const finish = (r: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };

    child.on('exit', () => {
      // the command is over: end whatever it left behind (a detached child, a daemon)
      killTree();
      drain = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, DRAIN_GRACE_MS);
    });
    child.on('close', (exitCode, signal) => {
      finish({ ...result, exitCode, signal, output: Buffer.concat(chunks).toString('utf8') });
    });
    child.on('error', (e) => {
      killTree();
      finish({ ...result, startError: e.message });
    });
  });

  if (spec.cgroup) {
    await spec.cgroup.killAll();
    raw.outOfMemory = spec.cgroup.oomKills() > 0;
    raw.processLimitHit = spec.cgroup.pidsLimitHits() > 0;
    await spec.cgroup.remove();
  }
  if (raw.exitCode === SETUP_FAILED_EXIT && raw.output.startsWith('sandbox setup failed:')) raw.startError = raw.output.trim();
  return raw;
}
