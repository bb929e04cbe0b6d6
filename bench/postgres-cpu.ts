// CPU used by the embedded Postgres, read from /proc: printed beside a bench's own time, since on
// a small machine the server's work competes with the harness for the same cores.
import * as fs from 'node:fs';
import { runningPostmaster } from '../src/database/embedded/embedded-postgres';

/** CPU seconds used so far by the embedded server's processes (the postmaster, its live backends and those it reaped). */
export function postgresCpuSeconds(dataDir: string): number | null {
  const master = runningPostmaster(dataDir);
  if (!master) return null;
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      if (pid !== master.pid && ppid !== master.pid) continue;
      total += (Number(fields[11]) + Number(fields[12])) / ticks; // utime + stime
      // cutime + cstime: backends that already ended (an eval's connections close with it) count here once reaped
      if (pid === master.pid) total += (Number(fields[13]) + Number(fields[14])) / ticks;
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}
