// `loupe eval status RUN`: how far a run is, in all and per worker.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { RunStatus } from '../../eval/queue/run-status.repository';
import { lazy } from '../lazy';
import { runIdArg, UsageError } from './eval.command';

const age = (ms: number | null) =>
  ms === null ? '-' : ms < 1_000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

export function formatRunStatus(s: RunStatus): string {
  const t = s.totals;
  const lines = [
    `run ${s.runId}  ${s.status}  ${s.done}/${s.trials} trials done (${t.passed} passed, ${t.failed} failed, ${t.unjudged} unjudged, ${t.error} error), ${t.running} running` +
      `${s.waiting !== null ? `, ${s.waiting} waiting in the queue` : ''}${t.interrupted ? `, ${t.interrupted} interrupted (rerun as new attempts)` : ''}`,
  ];
  const header = [
    'WORKER',
    'HOST',
    'PID',
    'OLLAMA_HOST',
    'SLOTS',
    'STATE',
    'HEARTBEAT',
    'RUNNING',
    'PASSED',
    'FAILED',
    'UNJUDGED',
    'ERROR',
    'INTERRUPTED',
  ];
  const rows = s.workers.map((w) => [
    w.name,
    w.host ?? '-',
    w.pid === null ? '-' : String(w.pid),
    w.ollamaHost ?? (w.id ? 'stand-ins' : '-'),
    w.slots === null ? '-' : String(w.slots),
    w.status,
    w.id ? `${age(w.heartbeatAgeMs)} ago` : '-',
    String(w.running),
    String(w.passed),
    String(w.failed),
    String(w.unjudged),
    String(w.error),
    String(w.interrupted),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [header, ...rows])
    lines.push(
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
  return lines.join('\n');
}

export function registerStatusCommand(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('status')
    .description(
      "A run's progress: trials done, running, interrupted and waiting, in all and per worker (host, OLLAMA_HOST, slots, heartbeat)",
    )
    .argument('<run>', 'the run id', runIdArg)
    .option('--json', 'machine-readable')
    .action(async (runId: string, opts: { json?: boolean }) => {
      const status = await lazy
        .appContext()
        .withAppContext(getConfig(), (app) => app.get(lazy.runStatus().RunStatusRepository).status(runId), { telemetry: false });
      if (!status) throw new UsageError(`no eval run ${runId}`);
      process.stdout.write(opts.json ? `${JSON.stringify(status, null, 2)}\n` : `${formatRunStatus(status)}\n`);
    });
}
