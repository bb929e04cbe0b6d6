// At the start of a command that runs trials: ends the children that Loupe processes killed with
// kill -9 left running (their MCP servers, commands), from the records they wrote, and removes those
// records. Only a child still running as the process that was recorded (pid and start time) is ended.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive, processStartTime } from '../process-alive';
import { planSweep, parseRecordFile, type ChildRecord, type PidFacts } from './child-records';
import { childRecordDir, signalChild } from './child-registry';

const facts: PidFacts = {
  alive: processAlive,
  startTime: processStartTime,
  groupExists: (pgid) => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};

/** The children ended (SIGTERM then, at once, SIGKILL: they are orphans nobody will talk to). */
export function sweepLeftChildren(home: string, log: (line: string) => void = () => undefined): ChildRecord[] {
  const dir = childRecordDir(home);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^\d+\.json$/.test(n));
  } catch {
    return [];
  }
  const ended: ChildRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (Number(name.split('.')[0]) === process.pid) continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const record = parseRecordFile(text);
    const plan = record ? planSweep(record, facts) : { kill: [], removeFile: true };
    for (const c of plan.kill) signalChild(c, 'SIGTERM');
    for (const c of plan.kill) signalChild(c, 'SIGKILL');
    for (const c of plan.kill)
      log(
        `loupe: ended ${c.group ? 'process group' : 'process'} ${c.pid} (${c.command}) left by Loupe process ${record!.ownerPid}, which is gone`,
      );
    ended.push(...plan.kill);
    if (plan.removeFile) fs.rmSync(file, { force: true });
  }
  return ended;
}
