// Per-call cgroups: created under this process's own cgroup (so whatever limits Loupe itself runs
// under still apply), limits written, the launcher joins them before it execs the sandbox, and
// afterwards whatever is left is killed and the cgroups are removed.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandLimits } from './command-limits';
import {
  CGROUP_CONTROLLERS,
  cgroupLimitWrites,
  limitFileOf,
  oomEventsFile,
  parseControllerList,
  parseOomKills,
  parsePids,
  parsePidsLimitHits,
  parseProcCgroup,
  type CgroupController,
  type CgroupVersion,
} from './cgroup-files';

export interface CgroupSupport {
  version: CgroupVersion | null;
  /** the directory new cgroups are made in, per usable controller */
  parents: Partial<Record<CgroupController, string>>;
  /** why a controller (or all of them) cannot be used, when one cannot */
  reason?: string;
}

const errText = (e: unknown) => (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Makes a scratch cgroup under `parent` and checks the limit file shows up; always removes it. */
function canCreate(parent: string, version: CgroupVersion, controller: CgroupController): string | undefined {
  const dir = path.join(parent, uniqueName('loupe-probe'));
  try {
    fs.mkdirSync(dir);
  } catch (e) {
    return `${controller}: cannot create a cgroup (${errText(e)})`;
  }
  try {
    return fs.existsSync(path.join(dir, limitFileOf(version, controller))) ? undefined : `${controller}: controller not enabled`;
  } finally {
    try {
      fs.rmdirSync(dir);
    } catch {
      // an empty probe cgroup; nothing can hold it
    }
  }
}

function detectV2(root: string, ownPath: string): CgroupSupport {
  const parent = path.join(root, ownPath);
  const parents: CgroupSupport['parents'] = {};
  const problems: string[] = [];
  const enabled = () => {
    try {
      return parseControllerList(fs.readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8'));
    } catch {
      return new Set<string>();
    }
  };
  for (const c of CGROUP_CONTROLLERS) {
    if (!enabled().has(c)) {
      try {
        // refused (EBUSY) where our own cgroup holds processes and is not the root: v2's "no internal processes"
        fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), `+${c}`);
      } catch (e) {
        problems.push(`${c}: cannot enable in ${ownPath} (${errText(e)})`);
        continue;
      }
    }
    const problem = canCreate(parent, 2, c);
    if (problem) problems.push(problem);
    else parents[c] = parent;
  }
  return { version: 2, parents, reason: problems.length ? problems.join('; ') : undefined };
}

function detectV1(root: string, own: Partial<Record<string, string>>): CgroupSupport {
  const parents: CgroupSupport['parents'] = {};
  const problems: string[] = [];
  for (const c of CGROUP_CONTROLLERS) {
    const mount = path.join(root, c);
    if (own[c] === undefined || !fs.existsSync(path.join(mount, 'cgroup.procs'))) {
      problems.push(`${c}: no v1 hierarchy mounted at ${mount}`);
      continue;
    }
    const parent = path.join(mount, own[c]!);
    const problem = canCreate(parent, 1, c);
    if (problem) problems.push(problem);
    else parents[c] = parent;
  }
  return { version: 1, parents, reason: problems.length ? problems.join('; ') : undefined };
}

/** Which controllers this process can give a command's processes a limit with (a few mkdir/rmdir). */
export function detectCgroups(root = '/sys/fs/cgroup', procSelfCgroup = '/proc/self/cgroup'): CgroupSupport {
  if (process.platform !== 'linux') return { version: null, parents: {}, reason: `no cgroups on ${process.platform}` };
  let own: ReturnType<typeof parseProcCgroup>;
  try {
    own = parseProcCgroup(fs.readFileSync(procSelfCgroup, 'utf8'));
  } catch (e) {
    return { version: null, parents: {}, reason: `cannot read ${procSelfCgroup} (${errText(e)})` };
  }
  if (fs.existsSync(path.join(root, 'cgroup.controllers'))) return detectV2(root, own.v2 ?? '/');
  if (Object.keys(own.v1).length) return detectV1(root, own.v1);
  return { version: null, parents: {}, reason: `no cgroup file system at ${root}` };
}

/** The cgroup(s) of one command: one directory per v1 hierarchy, or one v2 directory. */
export class CallCgroup {
  private constructor(
    private readonly version: CgroupVersion,
    private readonly dirs: Partial<Record<CgroupController, string>>,
  ) {}

  /** Creates the cgroups and writes the limits; on any failure removes what it made and throws. */
  static create(support: CgroupSupport, limits: CommandLimits): CallCgroup | undefined {
    if (!support.version || !Object.keys(support.parents).length) return undefined;
    const name = uniqueName('loupe-cmd');
    const dirs: Partial<Record<CgroupController, string>> = {};
    const made = new Set<string>();
    try {
      for (const c of CGROUP_CONTROLLERS) {
        const parent = support.parents[c];
        if (!parent) continue;
        const dir = path.join(parent, name);
        if (!made.has(dir)) fs.mkdirSync(dir);
        made.add(dir);
        dirs[c] = dir;
        for (const w of cgroupLimitWrites(support.version, c, limits)) {
          const file = path.join(dir, w.file);
          if (w.optional && !fs.existsSync(file)) continue;
          fs.writeFileSync(file, w.value);
        }
      }
    } catch (e) {
      for (const dir of made) {
        try {
          fs.rmdirSync(dir);
        } catch {
          // nothing joined it yet: an empty cgroup always goes
        }
      }
      throw new Error(`cannot set up the command's cgroup limits (${errText(e)})`);
    }
    return new CallCgroup(support.version, dirs);
  }

  private distinctDirs(): string[] {
    return [...new Set(Object.values(this.dirs))];
  }

  /** The files the launcher writes its pid to (it joins before exec, so all it starts is inside). */
  get procsFiles(): string[] {
    return this.distinctDirs().map((d) => path.join(d, 'cgroup.procs'));
  }

  pids(): number[] {
    const all = new Set<number>();
    for (const file of this.procsFiles) {
      try {
        for (const pid of parsePids(fs.readFileSync(file, 'utf8'))) all.add(pid);
      } catch {
        // already removed
      }
    }
    return [...all];
  }

  /** SIGKILLs every process left inside until none is (a forking tree is bounded by pids.max). */
  async killAll(): Promise<void> {
    const v2Kill = this.version === 2 && this.dirs.pids ? path.join(this.dirs.pids, 'cgroup.kill') : undefined;
    for (let round = 0; round < 100; round++) {
      const pids = this.pids();
      if (!pids.length) return;
      if (v2Kill && fs.existsSync(v2Kill)) fs.writeFileSync(v2Kill, '1');
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
      // processes of a PID namespace that just ended take a moment to leave: poll fast at first
      await sleep(round < 20 ? 1 : 20);
    }
  }

  /** How many processes the kernel killed for exceeding the memory limit. */
  oomKills(): number {
    const dir = this.dirs.memory;
    if (!dir) return 0;
    try {
      return parseOomKills(fs.readFileSync(path.join(dir, oomEventsFile(this.version)), 'utf8'));
    } catch {
      return 0;
    }
  }

  /** How many forks the process limit refused. */
  pidsLimitHits(): number {
    const dir = this.dirs.pids;
    if (!dir) return 0;
    try {
      return parsePidsLimitHits(fs.readFileSync(path.join(dir, 'pids.events'), 'utf8'));
    } catch {
      return 0;
    }
  }

  /** Kills what is left and removes the cgroups (an exiting process may hold one for a moment). */
  async remove(): Promise<void> {
    await this.killAll();
    for (const dir of this.distinctDirs()) {
      for (let attempt = 0; ; attempt++) {
        try {
          fs.rmdirSync(dir);
          break;
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || attempt >= 40) break;
          await sleep(attempt < 10 ? 2 : 25);
          await this.killAll();
        }
      }
    }
  }
}
