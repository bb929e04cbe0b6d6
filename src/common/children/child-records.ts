// What a Loupe process writes about the processes it started (MCP servers, commands), and which of
// those records a later process may act on. A record names its owner (pid and start time) and each
// child (pid, start time, whether it leads its own process group), so that a sweep after a kill -9
// ends only the processes that owner started — never a process that reused a pid. Pure.

export interface ChildRecord {
  pid: number;
  /** kernel start time (/proc/<pid>/stat field 22) when it was spawned; null off Linux */
  startTime: number | null;
  /** true: it leads its own process group (spawned detached), and the whole group is ended */
  group: boolean;
  /** the command line, for the sweep's message */
  command: string;
}

export interface ChildRecordFile {
  ownerPid: number;
  ownerStartTime: number | null;
  children: ChildRecord[];
}

/** What is true now of a pid (read by the caller: /proc, kill -0). */
export interface PidFacts {
  alive(pid: number): boolean;
  /** undefined: gone, or unknown off Linux */
  startTime(pid: number): number | undefined;
  /** whether any process is in the process group with this id (kill -0 -pgid) */
  groupExists(pgid: number): boolean;
}

export interface SweepPlan {
  /** children to end (their owner is gone, and the pid is still the process the owner started) */
  kill: ChildRecord[];
  /** true: the owner is gone, so the file goes once its children are dealt with */
  removeFile: boolean;
}

function isSameProcess(pid: number, startTime: number | null, facts: PidFacts): boolean {
  if (!facts.alive(pid)) return false;
  if (startTime === null) return true;
  const now = facts.startTime(pid);
  // unknown now (the process vanished between the two reads): not ours to kill
  return now === startTime;
}

/**
 * Whether the recorded child (or what is left of its group) is still the owner's. A group outlives
 * its leader; while it does, the kernel gives no new process the leader's pid, so a live group
 * whose leader's pid runs nothing is still the recorded one.
 */
function stillOurs(c: ChildRecord, facts: PidFacts): boolean {
  if (c.startTime === null) return false; // nothing would tell it apart from a stranger
  if (facts.alive(c.pid)) return isSameProcess(c.pid, c.startTime, facts);
  return c.group && facts.groupExists(c.pid);
}

/**
 * A file whose owner still runs is left alone (its children are its own business). Otherwise each
 * child still running as the same process (pid and start time), or its group left behind, is to be
 * killed; a recycled or dead pid is not; and the file goes. A child without a recorded start time
 * is never killed by a sweep.
 */
export function planSweep(file: ChildRecordFile, facts: PidFacts): SweepPlan {
  if (isSameProcess(file.ownerPid, file.ownerStartTime, facts)) return { kill: [], removeFile: false };
  return { kill: file.children.filter((c) => stillOurs(c, facts)), removeFile: true };
}

/** A record file as read back; null when it is not one (torn write, another format): it is removed. */
export function parseRecordFile(text: string): ChildRecordFile | null {
  try {
    const v = JSON.parse(text) as Partial<ChildRecordFile>;
    if (typeof v.ownerPid !== 'number' || !Array.isArray(v.children)) return null;
    const children = v.children.filter((c): c is ChildRecord => typeof c?.pid === 'number' && c.pid > 1 && typeof c.group === 'boolean');
    return { ownerPid: v.ownerPid, ownerStartTime: typeof v.ownerStartTime === 'number' ? v.ownerStartTime : null, children };
  } catch {
    return null;
  }
}
