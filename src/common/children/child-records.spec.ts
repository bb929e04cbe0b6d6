import { parseRecordFile, planSweep, type ChildRecord, type ChildRecordFile, type PidFacts } from './child-records';

/** A process table: pid → start time; groups listed apart (a group may outlive its leader). */
function table(procs: Record<number, number>, groups: number[] = []): PidFacts {
  return {
    alive: (pid) => pid in procs,
    startTime: (pid) => procs[pid],
    groupExists: (pgid) => groups.includes(pgid) || pgid in procs,
  };
}

const server: ChildRecord = { pid: 500, startTime: 9000, group: true, command: 'node server.js' };
const stdio: ChildRecord = { pid: 600, startTime: 9100, group: false, command: 'node stdio.js' };
const file = (children: ChildRecord[], owner = { ownerPid: 100, ownerStartTime: 8000 }): ChildRecordFile => ({ ...owner, children });

describe('planSweep', () => {
  it('leaves the children of an owner that still runs', () => {
    expect(planSweep(file([server, stdio]), table({ 100: 8000, 500: 9000, 600: 9100 }))).toEqual({ kill: [], removeFile: false });
  });

  it('kills the children of a dead owner that still run as the recorded processes, and drops the file', () => {
    expect(planSweep(file([server, stdio]), table({ 500: 9000, 600: 9100 }))).toEqual({ kill: [server, stdio], removeFile: true });
  });

  it('treats an owner pid reused by another process as gone', () => {
    expect(planSweep(file([server]), table({ 100: 12345, 500: 9000 }))).toEqual({ kill: [server], removeFile: true });
  });

  it('never kills a recycled pid (same pid, another start time)', () => {
    expect(planSweep(file([server, stdio]), table({ 500: 77777, 600: 9100 }))).toEqual({ kill: [stdio], removeFile: true });
  });

  it('kills the group a dead leader left behind (its pid cannot have been reused while the group lives)', () => {
    expect(planSweep(file([server]), table({}, [500]))).toEqual({ kill: [server], removeFile: true });
    // a process that is not a group leader: nothing left to reach
    expect(planSweep(file([{ ...server, group: false }]), table({}, [500]))).toEqual({ kill: [], removeFile: true });
  });

  it('drops the file of children all gone', () => {
    expect(planSweep(file([server, stdio]), table({}))).toEqual({ kill: [], removeFile: true });
  });

  it('never kills a child recorded without a start time (nothing tells it apart from a stranger)', () => {
    expect(planSweep(file([{ ...server, startTime: null }]), table({ 500: 9000 }))).toEqual({ kill: [], removeFile: true });
  });
});

describe('parseRecordFile', () => {
  it('reads a record back and rejects what is not one', () => {
    const f = file([server]);
    expect(parseRecordFile(JSON.stringify(f))).toEqual(f);
    expect(parseRecordFile('{"ownerPid": 1, "chil')).toBeNull();
    expect(parseRecordFile('[]')).toBeNull();
    // pid 0 or 1 would signal this process group or init: dropped
    expect(
      parseRecordFile(
        JSON.stringify(
          file([
            { ...server, pid: 1 },
            { ...server, pid: 0 },
          ]),
        ),
      )!.children,
    ).toEqual([]);
  });
});
