// The benches' CPU reader: what it prints beside wall time must follow the process's real CPU.
import { spawnSync } from 'node:child_process';
import { procCpuMs, procStatFields, statCpuMs } from '../../bench/proc-cpu';

const linux = process.platform === 'linux';

(linux ? describe : describe.skip)('proc-cpu (bench)', () => {
  it("reads this process's CPU, which grows as it works", () => {
    const before = procCpuMs(process.pid)!;
    expect(before).toBeGreaterThan(0);
    // work until the reader has seen 50 ms more CPU (on a loaded machine that takes longer, never fails)
    const deadline = Date.now() + 30_000;
    let x = 0;
    while ((procCpuMs(process.pid) ?? 0) < before + 50 && Date.now() < deadline) {
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(i);
    }
    const after = procCpuMs(process.pid)!;
    expect(x).toBeGreaterThan(0);
    expect(after).toBeGreaterThanOrEqual(before + 50);
    expect(process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000).toBeGreaterThanOrEqual(after - 20);
    expect(statCpuMs(procStatFields(process.pid)!)).toBeGreaterThanOrEqual(after);
  });

  it('answers null for a process that is gone, or none', () => {
    const child = spawnSync(process.execPath, ['-e', '0']);
    expect(child.status).toBe(0);
    expect(procCpuMs(child.pid)).toBeNull();
    expect(procCpuMs(undefined)).toBeNull();
  });
});
