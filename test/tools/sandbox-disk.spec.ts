// The command tool's disk limit (CommandLimits.diskBytes), against real bubblewrap: one file cannot
// grow past it (RLIMIT_FSIZE), the private /tmp cannot hold more (tmpfs size), and a workspace
// filled past it in files each under the cap takes no further command until files are removed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveCommandLimits } from '../../src/tools/sandbox/command-limits';
import { describeCommandResult } from '../../src/tools/sandbox/command-result';
import { resolveCommandPlan } from '../../src/tools/sandbox/command-tool';
import type { CommandPlan } from '../../src/tools/sandbox/sandbox-plan';
import { diskUsage } from '../../src/tools/sandbox/disk-usage';
import { runCommand } from '../../src/tools/workspace/run-command';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { describeWithCommand } from '../support/system-tool';

const MiB = 1024 * 1024;
const limits = resolveCommandLimits({ diskBytes: 4 * MiB, timeoutMs: 20_000 });

describeWithCommand('bwrap', 'the disk limit of sandboxed commands', () => {
  let home: string;
  let dir: string;
  let plan: Extract<CommandPlan, { run: 'bubblewrap' }>;
  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-sandbox-disk-'));
    const p = await resolveCommandPlan('bubblewrap', limits);
    if (p.run !== 'bubblewrap') throw new Error(`no sandbox: ${p.run === 'refuse' ? p.refusal : p.run}`);
    plan = p;
  });
  beforeEach(async () => {
    dir = await createWorkspace(home, `s-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  const run = async (command: string) => {
    const r = await runCommand(command, plan, dir);
    return { r, ...describeCommandResult(r, plan.limits) };
  };

  it('stops one file at the limit (SIGXFSZ), in the workspace', async () => {
    const { r, text, isError } = await run('head -c 16777216 /dev/zero > /workspace/big');
    expect(isError).toBe(true);
    expect(text).toMatch(/SIGXFSZ|File too large/);
    expect(r.exitCode).not.toBe(0);
    expect(fs.statSync(path.join(dir, 'big')).size).toBeLessThanOrEqual(limits.diskBytes);
  });

  it('stops /tmp at the limit in all, though each file is under it', async () => {
    const { text, isError } = await run(
      'for i in 1 2 3; do head -c 3145728 /dev/zero > /tmp/f$i || { echo "write $i failed"; du -sk /tmp; exit 7; }; done; echo all written',
    );
    expect(isError).toBe(true);
    expect(text).not.toContain('all written');
    expect(text).toMatch(/No space left on device/);
    const kb = Number(/(\d+)\s+\/tmp/.exec(text)?.[1]);
    expect(kb * 1024).toBeLessThanOrEqual(limits.diskBytes);
  });

  it('refuses further commands while the workspace is above the limit, and runs them again once it is not', async () => {
    const fill = await run('for i in 1 2 3; do head -c 3145728 /dev/zero > /workspace/f$i; done; echo filled');
    expect(fill.text).toContain('filled');
    expect(fill.r.diskLimitHit).toBe(true);
    expect(fill.isError).toBe(true);
    expect(fill.text).toContain('[disk limit: the workspace now holds more than 4 MB');

    const next = await run('echo should-not-run > /workspace/marker');
    expect(next.isError).toBe(true);
    expect(next.text).toContain('remove files before running commands');
    expect(fs.existsSync(path.join(dir, 'marker'))).toBe(false);

    fs.rmSync(path.join(dir, 'f1'));
    fs.rmSync(path.join(dir, 'f2'));
    expect(await diskUsage(dir, limits.diskBytes)).toBeLessThanOrEqual(limits.diskBytes);
    const after = await run('echo ran');
    expect(after.isError).toBe(false);
    expect(after.text).toContain('ran');
  });
});

describe('diskUsage', () => {
  it('counts allocated blocks once per inode and stops past the limit', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-disk-usage-'));
    try {
      fs.writeFileSync(path.join(root, 'a'), Buffer.alloc(MiB, 1));
      fs.linkSync(path.join(root, 'a'), path.join(root, 'a-link'));
      fs.symlinkSync('/usr', path.join(root, 'out'));
      fs.mkdirSync(path.join(root, 'd'));
      fs.writeFileSync(path.join(root, 'd', 'b'), Buffer.alloc(MiB, 1));
      const used = await diskUsage(root, 100 * MiB);
      expect(used).toBeGreaterThanOrEqual(2 * MiB);
      expect(used).toBeLessThan(3 * MiB);
      expect(await diskUsage(root, MiB / 2)).toBeGreaterThan(MiB / 2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
