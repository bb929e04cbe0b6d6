// The session's sandbox mode: `auto`/`bubblewrap` refuse where no sandbox can run (never a silent
// downgrade), `none` is an explicit opt-out that still scrubs the environment and applies the
// limits it can, and without writable cgroups the limits fall back to rlimits and say so.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SANDBOX_EVENTS } from '../../src/journal/events/sandbox-events';
import { openWorkspaceSource } from '../../src/tools/builtin-tool-source';
import type { McpToolSource } from '../../src/tools/mcp-tool-source';
import { detectCgroups } from '../../src/tools/sandbox/cgroup-limits';
import { resolveCommandLimits } from '../../src/tools/sandbox/command-limits';
import { resolveCommandPlan } from '../../src/tools/sandbox/command-tool';
import { refusalText, type CommandSandboxMode } from '../../src/tools/sandbox/sandbox-plan';
import { probeSandbox, type SandboxProber } from '../../src/tools/sandbox/sandbox-probe';
import { ToolsService } from '../../src/tools/tools.service';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { describeWithCommand } from '../support/system-tool';
import { survivors } from './sandbox-test-kit';

const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const cgroups = detectCgroups();
const opts = { timeoutMs: 20_000 };

/** A machine without bubblewrap (and without cgroups), whatever this one has. */
const noSandboxHere: SandboxProber = async () => ({
  bubblewrap: { usable: false, reason: 'bubblewrap (bwrap) is not installed' },
  cgroups: { version: null, parents: {}, reason: 'simulated' },
  layout: { system: [], etc: [] },
});

let home: string;
let dir: string;
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sandbox-modes-'));
  dir = await createWorkspace(home, 'session-1', { 'notes.txt': 'hello\n' });
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('the command tool without a usable sandbox', () => {
  it.each<CommandSandboxMode>(['auto', 'bubblewrap'])('in mode %s refuses, runs nothing, and says how to opt out', async (mode) => {
    const source = await openWorkspaceSource(dir, ['read_file', 'execute_command'], { commandSandbox: mode, sandboxProbe: noSandboxHere });
    try {
      const r = await source.call('execute_command', { command: 'touch ran.txt' }, opts);
      expect(r).toEqual(expect.objectContaining({ status: 'error', text: refusalText('bubblewrap (bwrap) is not installed') }));
      expect(r.text).toContain('`sandbox: none`');
      expect(fs.existsSync(path.join(dir, 'ran.txt'))).toBe(false);
      expect(await source.call('read_file', { path: 'notes.txt' }, opts)).toEqual(
        expect.objectContaining({ status: 'ok', text: 'hello\n' }),
      );
    } finally {
      await source.close();
    }
  });

  it('is recorded as unavailable, with the reason', async () => {
    const plan = await resolveCommandPlan('auto', resolveCommandLimits(), noSandboxHere);
    expect(SANDBOX_EVENTS.command_sandbox.payload.parse(plan.record)).toEqual(
      expect.objectContaining({ mode: 'unavailable', reason: 'bubblewrap (bwrap) is not installed' }),
    );
  });
});

describe('the command tool is opt-in', () => {
  it.each([
    ['no allow list', undefined, []],
    ['an allow list without it', ['read_file'], []],
    ['execute_command named', ['read_file', 'execute_command'], ['execute_command']],
    ['run_command named', ['run_command'], ['run_command']],
  ])('%s: offered as expected', async (_case, allow, expected) => {
    const tools = await new ToolsService().createSessionTools({ workspaceDir: dir, allow, commandSandbox: 'none' });
    try {
      expect(
        tools
          .definitions()
          .map((d) => d.name)
          .filter((n) => n.endsWith('_command')),
      ).toEqual(expected);
      expect(tools.sandbox?.mode).toBe(expected.length ? 'none' : undefined);
    } finally {
      await tools.close();
    }
  });
});

describe('sandbox: none (an explicit opt-out)', () => {
  const saved = process.env.LOUPE_ADMIN_TOKEN;
  beforeAll(() => {
    process.env.LOUPE_ADMIN_TOKEN = SECRET;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.LOUPE_ADMIN_TOKEN;
    else process.env.LOUPE_ADMIN_TOKEN = saved;
  });

  it('runs in the workspace with only the scrubbed environment, and records the opt-out', async () => {
    const tools = await new ToolsService().createSessionTools({
      workspaceDir: dir,
      allow: ['execute_command'],
      commandSandbox: 'none',
      commandTimeoutMs: 2_000,
    });
    try {
      expect(SANDBOX_EVENTS.command_sandbox.payload.parse(tools.sandbox)).toEqual(
        expect.objectContaining({ mode: 'none', reason: expect.stringContaining('opted out') }),
      );
      // SHLVL: a bash launcher's `exec` exports it (a counter, nothing of Loupe's)
      const r = await tools.execute('execute_command', { command: 'pwd; env | cut -d= -f1 | grep -vx SHLVL | sort' }, opts);
      const real = fs.realpathSync(dir);
      expect(r).toEqual(expect.objectContaining({ status: 'ok', text: `${real}\nHOME\nLANG\nLC_ALL\nPATH\nPWD\nTERM\nTMPDIR\n` }));
      expect((await tools.execute('execute_command', { command: 'env' }, opts)).text).not.toContain(SECRET);
      const yes = await tools.execute('execute_command', { command: 'yes' }, opts);
      expect(yes.text).toMatch(/\[output exceeded 64000 bytes: the rest was dropped and the command killed\]$/);
      expect(await tools.execute('execute_command', { command: 'sleep 5' }, opts)).toEqual(
        expect.objectContaining({ status: 'error', text: '[command timed out after 2000 ms and was killed]' }),
      );
    } finally {
      await tools.close();
    }
  });

  it('still ends a background child with the call (the process group; a setsid one through the cgroup)', async () => {
    const tools = await new ToolsService().createSessionTools({ workspaceDir: dir, allow: ['execute_command'], commandSandbox: 'none' });
    const [a, b] = [`1000.${process.pid}91`, `1000.${process.pid}92`];
    try {
      const command = cgroups.parents.pids
        ? `nohup sleep ${a} >/dev/null 2>&1 & setsid sleep ${b} & echo started`
        : `nohup sleep ${a} >/dev/null 2>&1 & echo started`;
      expect(await tools.execute('execute_command', { command }, opts)).toEqual(
        expect.objectContaining({ status: 'ok', text: 'started\n' }),
      );
      expect([...survivors(a), ...survivors(b)]).toEqual([]);
    } finally {
      await tools.close();
    }
  });
});

describeWithCommand('bwrap', 'the sandbox where cgroups are not writable (rlimit fallback)', () => {
  const withoutCgroups: SandboxProber = async () => ({
    ...(await probeSandbox()),
    cgroups: { version: null, parents: {}, reason: 'simulated: read-only cgroup file system' },
  });
  let source: McpToolSource;
  let record: unknown;
  beforeAll(async () => {
    const plan = await resolveCommandPlan('bubblewrap', resolveCommandLimits({ timeoutMs: 4_000, cpu: 0.25 }), withoutCgroups);
    record = plan.record;
    source = await openWorkspaceSource(dir, ['execute_command'], { commandSandbox: 'bubblewrap', commandPlan: plan });
  });
  afterAll(() => source?.close());

  it('records which limits rlimits enforce, which none does, and why', () => {
    expect(SANDBOX_EVENTS.command_sandbox.payload.parse(record)).toEqual({
      mode: 'bubblewrap',
      limits: {
        memoryBytes: 536_870_912,
        cpu: 0.25,
        pids: 64,
        outputBytes: 64_000,
        timeoutMs: 4_000,
        diskBytes: 268_435_456,
        enforcedBy: {
          memory: 'rlimit-as',
          cpu: 'rlimit-cpu',
          pids: 'none',
          output: 'loupe',
          timeout: 'loupe',
          processTree: 'pid-namespace',
        },
      },
      limitsNote: 'cgroups: simulated: read-only cgroup file system',
    });
  });

  it('a memory hog fails its allocation (RLIMIT_AS)', async () => {
    const r = await source.call('execute_command', { command: 'perl -e \'$x = "a" x (1 << 30); print "allocated\\n"\'' }, opts);
    expect(r.status).toBe('error');
    expect(r.text).toMatch(/^Out of memory/);
    expect(r.text).not.toContain('allocated');
  });

  it('a CPU burner is stopped by RLIMIT_CPU (cpu × timeout = 1 s), before the wall-clock timeout', async () => {
    const r = await source.call('execute_command', { command: 'while :; do :; done' }, opts);
    expect(r).toEqual(expect.objectContaining({ status: 'error', text: '[exit code 152 (killed by SIGXCPU)]' }));
    expect(r.durationMs).toBeLessThan(3_500);
  });
});

describeWithCommand('bwrap', 'the sandbox probe', () => {
  it('finds bubblewrap usable here, once', async () => {
    const first = probeSandbox();
    expect(probeSandbox()).toBe(first);
    expect((await first).bubblewrap).toEqual(
      expect.objectContaining({ usable: true, path: expect.stringMatching(/\/bwrap$/), version: expect.stringMatching(/^bubblewrap /) }),
    );
  });
});
