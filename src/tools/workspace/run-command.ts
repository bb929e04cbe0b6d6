// One model command, run the way the session's plan says: inside bubblewrap (only the workspace
// writable, at /workspace) or, where the session opted out, as a plain shell in the workspace
// (inside the tool wrapper of tool-isolation.ts where it can run: Loupe's secrets out of reach);
// either way in a per-call cgroup (or under rlimits) with a scrubbed environment, and killed
// whole when it ends, times out, prints too much or is aborted.
import * as fs from 'node:fs';
import { bwrapInvocation } from '../sandbox/bwrap-args';
import { CallCgroup } from '../sandbox/cgroup-limits';
import { rlimitsFor } from '../sandbox/command-limits';
import { emptyCommandResult, type CommandResult } from '../sandbox/command-result';
import { checkWorkspaceRoot } from './workspace-root';
import { runLaunched } from '../sandbox/command-runner';
import { LAUNCHER_ENV, launcherArgv } from '../sandbox/launcher';
import { diskUsage } from '../sandbox/disk-usage';
import { toolLaunch } from '../sandbox/tool-isolation-host';
import type { CommandPlan } from '../sandbox/sandbox-plan';

export { describeCommandResult, type CommandResult } from '../sandbox/command-result';

/** Without the sandbox: only what a command needs to run; never the caller's tokens, URLs or credentials. */
export function scrubbedEnv(workspace: string, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: parent.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: workspace,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: workspace,
  };
}

export async function runCommand(
  command: string,
  plan: Extract<CommandPlan, { run: 'bubblewrap' | 'none' }>,
  workspace: string,
  signal?: AbortSignal,
): Promise<CommandResult> {
  let root: string;
  let cgroup: CallCgroup | undefined;
  try {
    // a root replaced since the workspace was made (by a link to "/", say) is refused, not bound writable
    await checkWorkspaceRoot(workspace);
    root = await fs.promises.realpath(workspace);
    if (await overDiskLimit(root, plan.limits.diskBytes)) return emptyCommandResult(diskRefusal(plan.limits.diskBytes));
    cgroup = CallCgroup.create(plan.cgroups, plan.limits);
  } catch (e) {
    return emptyCommandResult((e as Error).message);
  }
  const rlimits = rlimitsFor(plan.limits, plan.rlimits);
  const launch = (exec: string[], keepFds = 2) =>
    launcherArgv({ cgroupProcs: cgroup?.procsFiles ?? [], ...rlimits, exec, bash: plan.bash, keepFds });
  if (plan.run === 'bubblewrap') {
    const inv = bwrapInvocation(
      plan.bubblewrap.path,
      {
        workspace: root,
        layout: plan.layout,
        uid: process.getuid?.() ?? 0,
        gid: process.getgid?.() ?? 0,
        tmpfsBytes: plan.bubblewrap.tmpfsSize ? plan.limits.diskBytes : undefined,
      },
      command,
    );
    // cwd "/": the launcher's PWD would otherwise carry the host path into the sandbox's /proc/1/environ
    return withDiskCheck(
      root,
      plan.limits.diskBytes,
      runLaunched({
        argv: launch(inv.argv, 2 + inv.fdData.length),
        cwd: '/',
        env: { ...LAUNCHER_ENV },
        fdData: inv.fdData,
        limits: plan.limits,
        cgroup,
        signal,
      }),
    );
  }
  // not sandboxed, yet out of reach of Loupe's secrets where bubblewrap can wrap it (tool-isolation.ts)
  const tool = toolLaunch(['/bin/sh', '-c', command], { baseEnv: scrubbedEnv(root), cwd: root, workspace: root });
  return withDiskCheck(
    root,
    plan.limits.diskBytes,
    runLaunched({ argv: launch([tool.command, ...tool.args]), cwd: root, env: tool.env, limits: plan.limits, cgroup, signal }),
  );
}

const overDiskLimit = async (root: string, limit: number) => (await diskUsage(root, limit)) > limit;

const diskRefusal = (limit: number) =>
  `the workspace holds more than the ${Math.round(limit / (1024 * 1024))} MB disk limit; remove files before running commands`;

/** The workspace part of the disk limit, measured once the command and everything it started are gone. */
async function withDiskCheck(root: string, limit: number, run: Promise<CommandResult>): Promise<CommandResult> {
  const r = await run;
  return !r.startError && (await overDiskLimit(root, limit)) ? { ...r, diskLimitHit: true } : r;
}
