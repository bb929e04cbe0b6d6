// The escape table: each row is something a model might try from inside the command tool, run
// through the real MCP client and server like the loop does, and each must be refused or
// contained. After every row the session's other tools still work.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SANDBOX_EVENTS } from '../../src/journal/events/sandbox-events';
import { detectCgroups } from '../../src/tools/sandbox/cgroup-limits';
import type { ToolRegistry } from '../../src/tools/tool-registry';
import type { ToolOutcome } from '../../src/tools/tool-types';
import { ToolsService } from '../../src/tools/tools.service';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { describeWithCommand, isRequired } from '../support/system-tool';
import { waitUntil } from '../support/wait';
import { cgroupLeftovers, survivors, waitForNoSurvivors } from './sandbox-test-kit';

const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** All the sandbox's / can hold: system dirs, its own /etc, /proc, /dev, /tmp and the workspace. */
const SANDBOX_ROOT = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'usr', 'etc', 'proc', 'dev', 'tmp', 'workspace'];
const cgroups = detectCgroups();
const cgroupLimits = Boolean(cgroups.parents.memory && cgroups.parents.pids);
// CI names `cgroups` in LOUPE_REQUIRE_SYSTEM_TOOLS: there the rows that need them fail instead of skipping
const cgroupsRequired = isRequired('cgroups');
if (!cgroupLimits && !cgroupsRequired)
  process.stderr.write(`sandbox escape table: the fork-bomb and memory rows are skipped, no writable cgroups here (${cgroups.reason})\n`);

let seq = 0;
/** A `sleep` argument no other process has: its presence in a host command line means a survivor. */
const marker = () => `1000.${process.pid}${++seq}`;

interface Ctx {
  home: string;
  dir: string;
  port: number;
  connections: () => number;
  call: (command: string, timeoutMs?: number) => Promise<ToolOutcome>;
  tools: ToolRegistry;
}

/** A session's tools with the command tool in bubblewrap, and the workspace tools beside it. */
const sandboxedTools = (dir: string, commandTimeoutMs: number): Promise<ToolRegistry> =>
  new ToolsService().createSessionTools({
    workspaceDir: dir,
    allow: ['read_file', 'write_file', 'list_files', 'execute_command'],
    commandSandbox: 'bubblewrap',
    commandTimeoutMs,
  });

interface Row {
  needsCgroups?: boolean;
  run: (ctx: Ctx) => Promise<void>;
}

const ROWS: Array<[string, Row]> = [
  [
    '`..` paths lead to the sandbox root, not the host',
    {
      run: async ({ call }) => {
        const r = await call('cat ../../etc/hostname; echo ---; ls ../..; echo ---; ls ..');
        const [hostname, root, parent] = r.text.split('---\n');
        expect(hostname).toBe('cat: ../../etc/hostname: No such file or directory\n');
        const entries = root.split('\n').filter(Boolean);
        expect(entries).toEqual(expect.arrayContaining(['etc', 'proc', 'tmp', 'usr', 'workspace']));
        expect(SANDBOX_ROOT).toEqual(expect.arrayContaining(entries));
        expect(parent).toBe(root);
        expect(r.text).not.toContain('secret.txt');
      },
    },
  ],
  [
    "absolute paths to host files (the test's own dir, /root, the Loupe home, the project) do not exist inside",
    {
      run: async ({ call, home }) => {
        const r = await call(`cat ${home}/secret.txt; ls ${home}; ls /root; cat ${PROJECT_ROOT}/package.json; ls /work /home /var`);
        expect(r.text).not.toContain(SECRET);
        expect(r.text).not.toContain('"name": "loupe"');
        expect(r.text.match(/No such file or directory/g)?.length).toBe(7);
      },
    },
  ],
  [
    '`~` is the private /tmp, not the host home',
    {
      run: async ({ call }) => {
        const r = await call('echo ~; ls -A ~; cat ~/.bashrc ~/.gitconfig ~/.npmrc 2>/dev/null; echo end');
        expect(r.text).toBe('/tmp\nend\n');
      },
    },
  ],
  [
    'symlinks pointing out (and a dangling one) lead nowhere, and the file tools refuse them',
    {
      run: async ({ call, tools, home, dir }) => {
        const planted = path.join(home, 'planted.txt');
        const r = await call(
          `ln -s ${home}/secret.txt out-link; ln -s ${planted} dangling; ln -s /etc/passwd passwd-link; ` +
            'cat out-link; cat passwd-link; echo pwned > dangling; echo write=$?',
        );
        expect(r.text).not.toContain(SECRET);
        expect(r.text).not.toMatch(/^daemon:/m);
        expect(r.text).toMatch(/write=[1-9]/);
        expect(fs.existsSync(planted)).toBe(false);
        const opts = { timeoutMs: 5_000 };
        for (const p of ['out-link', 'passwd-link']) {
          expect(await tools.execute('read_file', { path: p }, opts)).toEqual(
            expect.objectContaining({ status: 'error', text: `Path "${p}" is outside the workspace` }),
          );
        }
        expect(await tools.execute('write_file', { path: 'dangling', content: 'x' }, opts)).toEqual(
          expect.objectContaining({ status: 'error' }),
        );
        expect(fs.existsSync(planted)).toBe(false);
        expect(fs.lstatSync(path.join(dir, 'dangling')).isSymbolicLink()).toBe(true);
      },
    },
  ],
  [
    "Loupe's environment is nowhere in the sandbox, /proc/1 and /proc/$PPID included",
    {
      run: async ({ call }) => {
        const r = await call(
          'echo ppid=$PPID; for f in /proc/$PPID/environ /proc/1/environ /proc/*/environ; do tr "\\0" "\\n" < $f; done; env',
        );
        expect(r.text).toMatch(/^ppid=1\n/);
        expect(r.text).toContain('HOME=/tmp');
        const hostHome = os.homedir() === '/tmp' ? [] : [`HOME=${os.homedir()}\n`];
        for (const leak of [SECRET, 'LOUPE_ADMIN_TOKEN', 'DATABASE_URL', ...hostHome]) expect(r.text).not.toContain(leak);
      },
    },
  ],
  [
    "no network: the host's loopback server and an outside address are unreachable",
    {
      run: async ({ call, port, connections }) => {
        const connect = (addr: string) =>
          `perl -MIO::Socket::INET -e 'IO::Socket::INET->new(PeerAddr => "${addr}", Timeout => 2) or die "connect failed: $!\\n"; print "connected\\n"'`;
        const r = await call(`${connect(`127.0.0.1:${port}`)}; ${connect('1.1.1.1:53')}; tail -n +3 /proc/net/dev | cut -d: -f1`);
        expect(r.text).not.toContain('connected');
        expect(r.text.match(/connect failed/g)).toHaveLength(2);
        expect(r.text.trim().split('\n').pop()!.trim()).toBe('lo');
        expect(connections()).toBe(0);
      },
    },
  ],
  [
    'a fork bomb is held at the process limit; the next call runs normally',
    {
      needsCgroups: true,
      run: async ({ call }) => {
        const m = marker();
        const r = await call(`: ${m}; f(){ f|f& }; f; sleep 1; echo after-bomb`, 15_000);
        expect(r.text).toContain('[process limit reached: at most 64 processes, further forks failed]');
        expect(survivors(m)).toEqual([]);
        const started = Date.now();
        expect(await call('echo next')).toEqual(expect.objectContaining({ status: 'ok', text: 'next\n' }));
        expect(Date.now() - started).toBeLessThan(3_000);
      },
    },
  ],
  [
    'endless output is cut at the cap and the command killed, long before the timeout',
    {
      run: async ({ call }) => {
        const r = await call('yes');
        expect(r.status).toBe('error');
        expect(r.text).toMatch(/\n\[output exceeded 64000 bytes: the rest was dropped and the command killed\]$/);
        expect(r.text.length).toBeLessThan(64_200);
        expect(r.durationMs).toBeLessThan(3_000);
      },
    },
  ],
  [
    'a command that never exits is killed at the timeout, nothing left behind',
    {
      run: async ({ call }) => {
        const m = marker();
        const r = await call(`sleep ${m}`);
        expect(r).toEqual(expect.objectContaining({ status: 'error', text: '[command timed out after 3000 ms and was killed]' }));
        expect(survivors(m)).toEqual([]);
      },
    },
  ],
  [
    "detached children (setsid, nohup, a subshell's background job) do not outlive the call",
    {
      run: async ({ call }) => {
        const [a, b, c] = [marker(), marker(), marker()];
        const r = await call(`setsid sleep ${a} & nohup sleep ${b} >/dev/null 2>&1 & (sleep ${c} &); echo started`);
        expect(r).toEqual(expect.objectContaining({ status: 'ok', text: 'started\n' }));
        expect([...survivors(a), ...survivors(b), ...survivors(c)]).toEqual([]);
      },
    },
  ],
  [
    'a memory hog is killed by the memory limit and reported',
    {
      needsCgroups: true,
      run: async ({ dir }) => {
        // its own session tools with a long timeout: at 0.5 CPU, faulting in 512 MB takes seconds on a
        // slow VM (3 s here, CI's run of this row timed out at the table's 3 s), and this row is about
        // the memory limit, not the timeout
        const tools = await sandboxedTools(dir, 45_000);
        let r: ToolOutcome;
        try {
          r = await tools.execute(
            'execute_command',
            { command: 'perl -e \'$x = "a" x (1 << 30); print "allocated\\n"\'' },
            { timeoutMs: 50_000 },
          );
        } finally {
          await tools.close();
        }
        expect(r.status).toBe('error');
        expect(r.text).not.toContain('allocated');
        expect(r.text).toContain('[out of memory: a process exceeded the 512 MB limit and was killed]');
      },
    },
  ],
  [
    'only the workspace is writable: system dirs are read-only, host paths absent',
    {
      run: async ({ call, home, dir }) => {
        const name = `escaped-${randomBytes(4).toString('hex')}`;
        const r = await call(`touch /usr/${name}; echo x > ${home}/${name}; echo x > /etc/${name}; echo inside > ${name}`);
        expect(r.text).toMatch(/Read-only file system/);
        expect(fs.existsSync(`/usr/${name}`) || fs.existsSync(path.join(home, name)) || fs.existsSync(`/etc/${name}`)).toBe(false);
        expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('inside\n');
      },
    },
  ],
  [
    'descriptors Loupe inherited (or bwrap was handed) do not reach the command',
    {
      run: async ({ call }) => {
        const r = await call('ls /proc/self/fd');
        // 3 is ls's own handle on the directory it lists
        expect(r.text).toBe('0\n1\n2\n3\n');
      },
    },
  ],
  [
    'the working directory is /workspace: no host path in what the command prints',
    {
      run: async ({ call, dir }) => {
        const r = await call('pwd; realpath .; echo "$PWD"; cat /proc/self/cgroup >/dev/null; echo done');
        expect(r.text).toBe('/workspace\n/workspace\n/workspace\ndone\n');
        expect(r.text).not.toContain(dir);
      },
    },
  ],
];

describeWithCommand('bwrap', 'the command sandbox (bubblewrap) against escape attempts, through the MCP client', () => {
  const saved = { token: process.env.LOUPE_ADMIN_TOKEN, db: process.env.DATABASE_URL };
  let ctx: Ctx;
  let server: net.Server;

  beforeAll(async () => {
    // in Loupe's own environment, where an unscrubbed launcher would hand it to the sandbox
    process.env.LOUPE_ADMIN_TOKEN = SECRET;
    process.env.DATABASE_URL = `postgres://loupe:${SECRET}@db:5432/loupe`;
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sandbox-'));
    const dir = await createWorkspace(home, 'session-1', { 'notes.txt': 'hello\n' });
    fs.writeFileSync(path.join(home, 'secret.txt'), SECRET);
    let connections = 0;
    server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tools = await sandboxedTools(dir, 3_000);
    ctx = {
      home,
      dir,
      tools,
      port: (server.address() as net.AddressInfo).port,
      connections: () => connections,
      call: (command, timeoutMs = 20_000) => tools.execute('execute_command', { command }, { timeoutMs }),
    };
  });

  afterAll(async () => {
    await ctx?.tools.close();
    await new Promise((resolve) => server?.close(resolve));
    if (ctx) fs.rmSync(ctx.home, { recursive: true, force: true });
    for (const [k, v] of [
      ['LOUPE_ADMIN_TOKEN', saved.token],
      ['DATABASE_URL', saved.db],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('runs commands in bubblewrap and records how, limits and their enforcement included', async () => {
    expect(ctx.tools.sandbox).toEqual(expect.objectContaining({ mode: 'bubblewrap' }));
    expect(SANDBOX_EVENTS.command_sandbox.payload.parse(ctx.tools.sandbox)).toEqual(ctx.tools.sandbox);
    expect(ctx.tools.sandbox!.limits).toEqual(
      expect.objectContaining({ memoryBytes: 536_870_912, cpu: 0.5, pids: 64, outputBytes: 64_000, timeoutMs: 3_000 }),
    );
    expect(ctx.tools.sandbox!.limits.enforcedBy.processTree).toBe('pid-namespace');
    if (cgroupLimits)
      expect(ctx.tools.sandbox!.limits.enforcedBy).toEqual(
        expect.objectContaining({ memory: `cgroup-v${cgroups.version}`, pids: `cgroup-v${cgroups.version}` }),
      );
    expect(await ctx.call('echo hello from $(hostname)')).toEqual(
      expect.objectContaining({ status: 'ok', text: 'hello from sandbox\n', server: 'workspace' }),
    );
  });

  describe.each(ROWS)('%s', (_name, row) => {
    const maybe = row.needsCgroups && !cgroupLimits && !cgroupsRequired ? it.skip : it;
    maybe("is refused or contained, and the session's other tools still work", async () => {
      if (row.needsCgroups && !cgroupLimits)
        throw new Error(`writable cgroups are missing but LOUPE_REQUIRE_SYSTEM_TOOLS requires them: ${cgroups.reason}`);
      await row.run(ctx);
      const opts = { timeoutMs: 5_000 };
      expect(await ctx.tools.execute('read_file', { path: 'notes.txt' }, opts)).toEqual(
        expect.objectContaining({ status: 'ok', text: 'hello\n' }),
      );
      expect((await ctx.tools.execute('list_files', {}, opts)).status).toBe('ok');
    });
  });

  it('kills the whole command when the call is aborted (the session killed), leaving no survivor', async () => {
    const [a, b] = [marker(), marker()];
    const ac = new AbortController();
    const pending = ctx.tools.execute(
      'execute_command',
      { command: `setsid sleep ${a} & sleep ${b}` },
      { timeoutMs: 20_000, signal: ac.signal },
    );
    await running(b);
    ac.abort();
    expect((await pending).status).toBe('aborted');
    await waitForNoSurvivors([a, b]);
    // the server side finishes after the client gave up: its cgroup goes too
    await noCgroupsLeft();
  });

  it("ends a running command when the session's tools are closed", async () => {
    const tools = await new ToolsService().createSessionTools({
      workspaceDir: ctx.dir,
      allow: ['execute_command'],
      commandSandbox: 'bubblewrap',
    });
    const m = marker();
    const pending = tools.execute('execute_command', { command: `sleep ${m}` }, { timeoutMs: 20_000 });
    await running(m);
    await tools.close();
    expect((await pending).status).not.toBe('ok');
    await waitForNoSurvivors([m]);
    await noCgroupsLeft();
  });

  it('leaves none of its per-call cgroups behind', () => {
    expect(cgroupLeftovers(cgroups)).toEqual([]);
  });

  it('offers run_command as an alias that behaves the same', async () => {
    const tools = await new ToolsService().createSessionTools({
      workspaceDir: ctx.dir,
      allow: ['run_command'],
      commandSandbox: 'bubblewrap',
    });
    try {
      expect(tools.definitions().map((d) => d.name)).toEqual(['run_command']);
      expect(await tools.execute('run_command', { command: 'pwd; echo $HOME' }, { timeoutMs: 10_000 })).toEqual(
        expect.objectContaining({ status: 'ok', text: '/workspace\n/tmp\n' }),
      );
    } finally {
      await tools.close();
    }
  });
});

// A command's processes and cgroups are seen from the host (/proc, the cgroup tree): nothing
// announces them to this process, so these poll.
function running(marker: string): Promise<true> {
  return waitUntil(() => survivors(marker).length > 0, { what: `a process running ${marker}` });
}

function noCgroupsLeft(): Promise<true> {
  return waitUntil(() => cgroupLeftovers(cgroups).length === 0, {
    what: 'no per-call cgroup left',
    context: () => cgroupLeftovers(cgroups).join('\n'),
  });
}
