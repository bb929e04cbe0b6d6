// CPU used by the embedded Postgres, read from /proc: printed beside a bench's own time, since on
// a small machine the server's work competes with the harness for the same cores.
import * as fs from 'node:fs';
import { runningPostmaster } from '../src/database/embedded/embedded-postgres';
import { procChildrenCpuMs, procStatFields, statCpuMs } from './proc-cpu';

/** CPU seconds used so far by the embedded server's processes (the postmaster, its live backends and those it reaped). */
export function postgresCpuSeconds(dataDir: string): number | null {
  const master = runningPostmaster(dataDir);
  if (!master) return null;
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStatFields(entry);
    if (!fields) continue; // the process ended between the listing and the read
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    if (pid !== master.pid && ppid !== master.pid) continue;
    total += statCpuMs(fields) / 1_000;
    // cutime + cstime: backends that already ended (an eval's connections close with it) count here once reaped
    if (pid === master.pid) total += procChildrenCpuMs(fields) / 1_000;
  }
  return total;
}
