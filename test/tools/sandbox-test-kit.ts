// Looking for what a command might have left behind, from the host: processes (a sandbox's PID
// namespace is visible from outside) and per-call cgroups.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CgroupSupport } from '../../src/tools/sandbox/cgroup-limits';
import { waitUntil } from '../support/wait';

/** Host processes whose command line contains `marker` (e.g. a unique `sleep 1000.<n>`). */
export function survivors(marker: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmdline.includes(marker)) found.push(`${pid} ${cmdline}`);
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Survivors of an aborted call: the kill happens on the server's side, just after the client gave up. */
export async function waitForNoSurvivors(markers: string[]): Promise<void> {
  await waitUntil(() => !markers.flatMap(survivors).length, {
    what: `no process left with ${markers.join(', ')}`,
    context: () => `processes survived: ${markers.flatMap(survivors).join('; ')}`,
  });
}

/** Per-call cgroups this process created and did not remove. */
export function cgroupLeftovers(support: CgroupSupport): string[] {
  const prefix = `loupe-cmd-${process.pid}-`;
  return [...new Set(Object.values(support.parents))].flatMap((parent) =>
    fs
      .readdirSync(parent)
      .filter((n) => n.startsWith(prefix))
      .map((n) => path.join(parent, n)),
  );
}
