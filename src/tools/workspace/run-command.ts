// One model command, run the way the session's plan says: inside bubblewrap (only the workspace
// writable, at /workspace) or, where the session opted out, as a plain shell in the workspace;
// either way in a per-call cgroup (or under rlimits) with a scrubbed environment, and killed
// whole when it ends, times out, prints too much or is aborted.
import * as fs from 'node:fs';
import { bwrapInvocation } from '../sandbox/bwrap-args';
import { CallCgroup } from '../sandbox/cgroup-limits';
import { rlimitsFor } from '../sandbox/command-limits';
import { emptyCommandResult, type CommandResult } from '../sandbox/command-result';
import { runLaunched } from '../sandbox/command-runner';
import { LAUNCHER_ENV, launcherArgv } from '../sandbox/launcher';
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
    root = fs.realpathSync(workspace);
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
        tmpfsBytes: plan.bubblewrap.tmpfsSize ? plan.limits.memoryBytes : undefined,
      },
      command,
    );
    // cwd "/": the launcher's PWD would otherwise carry the host path into the sandbox's /proc/1/environ
    return runLaunched({
      argv: launch(inv.argv, 2 + inv.fdData.length),
      cwd: '/',
      env: { ...LAUNCHER_ENV },
      fdData: inv.fdData,
      limits: plan.limits,
      cgroup,
      signal,
    });
  }
  return runLaunched({ argv: launch(['/bin/sh', '-c', command]), cwd: root, env: scrubbedEnv(root), limits: plan.limits, cgroup, signal });
}
