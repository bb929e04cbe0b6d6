// What the command sandbox costs a call: time from a tool call to its result for execute_command
// running `true`, through the MCP client like the loop does, with the sandbox on (bubblewrap, with
// per-call cgroups where writable) and off (`sandbox: none`). Medians of many calls after a warm-up.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { probeSandbox } from '../src/tools/sandbox/sandbox-probe';
import type { CommandSandboxMode } from '../src/tools/sandbox/sandbox-plan';
import { ToolsService } from '../src/tools/tools.service';
import { median, type BenchFigure } from './run-benchmarks';

export interface SandboxBenchOptions {
  /** timed calls per mode (the median is reported) */
  calls?: number;
  warmup?: number;
}

async function timeCalls(
  mode: CommandSandboxMode,
  workspaceDir: string,
  calls: number,
  warmup: number,
): Promise<{ ms: number; p90: number; enforcedBy: string }> {
  const tools = await new ToolsService().createSessionTools({ workspaceDir, allow: ['execute_command'], commandSandbox: mode });
  try {
    const times: number[] = [];
    for (let i = 0; i < warmup + calls; i++) {
      const started = performance.now();
      const r = await tools.execute('execute_command', { command: 'true' }, { timeoutMs: 30_000 });
      const took = performance.now() - started;
      if (r.status !== 'ok') throw new Error(`execute_command (${mode}) failed: ${r.text}`);
      if (i >= warmup) times.push(took);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const e = tools.sandbox!.limits.enforcedBy;
    return {
      ms: median(times),
      p90: sorted[Math.floor(sorted.length * 0.9)],
      enforcedBy: `memory ${e.memory}, cpu ${e.cpu}, pids ${e.pids}`,
    };
  } finally {
    await tools.close();
  }
}

export async function benchSandbox(options: SandboxBenchOptions = {}): Promise<BenchFigure[]> {
  const calls = options.calls ?? 50;
  const warmup = options.warmup ?? 5;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-sandbox-'));
  try {
    const figures: BenchFigure[] = [];
    const off = await timeCalls('none', home, calls, warmup);
    figures.push({
      name: 'sandbox.execute-true.off',
      value: off.ms,
      unit: 'ms',
      note: `sandbox: none; p90 ${off.p90.toFixed(1)} ms; ${off.enforcedBy}; median of ${calls}`,
    });
    const probe = await probeSandbox();
    if (!probe.bubblewrap.usable) {
      process.stderr.write(`bench sandbox: no sandboxed figure, bubblewrap is not usable here (${probe.bubblewrap.reason})\n`);
      return figures;
    }
    const on = await timeCalls('bubblewrap', home, calls, warmup);
    figures.push(
      {
        name: 'sandbox.execute-true.bubblewrap',
        value: on.ms,
        unit: 'ms',
        note: `${probe.bubblewrap.version}; p90 ${on.p90.toFixed(1)} ms; ${on.enforcedBy}; median of ${calls}`,
      },
      { name: 'sandbox.overhead', value: on.ms - off.ms, unit: 'ms', note: 'median sandboxed minus median unsandboxed, per call' },
    );
    return figures;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchSandbox().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
