// The processes this Loupe process started and has not yet seen end (HTTP and stdio MCP servers,
// commands), written to <LOUPE_HOME>/children/<pid>.json while any runs. They are ended when this
// process exits, whatever the path out (a second Ctrl-C included); after a kill -9, the next Loupe
// start sweeps them (child-sweep.ts).
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processStartTime } from '../process-alive';
import type { ChildRecord, ChildRecordFile } from './child-records';

const live = new Map<number, ChildRecord>();
let dir: string | undefined;
let hooked = false;

export function childRecordDir(home: string): string {
  return path.join(home, 'children');
}

/** Where this process writes its records (a command that runs trials sets it at its start). */
export function recordChildrenUnder(home: string): void {
  dir = childRecordDir(home);
  write();
}

/** Ends a child: its process group when it leads one (SIGTERM, then SIGKILL), else the process. */
export function signalChild(c: Pick<ChildRecord, 'pid' | 'group'>, signal: NodeJS.Signals): void {
  try {
    process.kill(c.group ? -c.pid : c.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Tracks a spawned child until it exits. `group`: it was spawned detached (it leads its own process
 * group), so everything it started is ended with it.
 */
export function trackChild(child: ChildProcess, opts: { group: boolean; command: string }): void {
  const pid = child.pid;
  if (!pid || child.exitCode !== null || child.signalCode !== null) return;
  live.set(pid, { pid, startTime: processStartTime(pid) ?? null, group: opts.group, command: opts.command.slice(0, 300) });
  child.once('exit', () => {
    // the group may outlive its leader (a server's own child): ended now, not left to the sweep
    if (opts.group) signalChild({ pid, group: true }, 'SIGKILL');
    live.delete(pid);
    write();
  });
  hookExit();
  write();
}

/** Synchronously ends every tracked child (the process is exiting). */
export function killTrackedChildren(): void {
  for (const c of live.values()) signalChild(c, 'SIGTERM');
  for (const c of live.values()) signalChild(c, 'SIGKILL');
  live.clear();
  write();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killTrackedChildren);
}

function write(): void {
  if (!dir) return;
  const file = path.join(dir, `${process.pid}.json`);
  try {
    if (!live.size) {
      fs.rmSync(file, { force: true });
      return;
    }
    const record: ChildRecordFile = {
      ownerPid: process.pid,
      ownerStartTime: processStartTime(process.pid) ?? null,
      children: [...live.values()],
    };
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // whole or not at all: a torn file would hide the children from the sweep
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(record));
    fs.renameSync(`${file}.tmp`, file);
  } catch {
    // best effort: the records only serve a sweep after a kill -9
  }
}
