// `loupe worker`: takes trials of queued runs (`loupe eval --queue`) from the database it shares with
// them, against its own OLLAMA_HOST (or stand-ins), at most --slots at once, until stopped.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { evalProgress } from '../eval-progress';
import { EXIT, setVerdict } from '../exit-codes';
import { lazy } from '../lazy';
import { trialsRunHere } from '../trials-here';
import { positiveInt } from './eval.command';

export function registerWorkerCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('worker')
    .description(
      'Run trials of queued runs (`loupe eval --queue`) against this OLLAMA_HOST (or stand-ins), --slots at once; many workers may share one database',
    )
    .option('-s, --slots <n>', 'trials at once (default: OLLAMA_MAX_PARALLEL, else 1)', (v) => positiveInt(v, '--slots'))
    .option('-n, --name <name>', 'how `loupe eval status` names this worker (default: host:pid)')
    .option('--idle-exit <ms>', 'exit once no trial has come for this long', (v) => positiveInt(v, '--idle-exit'))
    .action(async (opts: { slots?: number; name?: string; idleExit?: number }) => {
      const config = getConfig();
      trialsRunHere(config.home);
      const progress = evalProgress();
      const result = await lazy.appContext().withAppContext(config, async (app) => {
        const worker = app.get(lazy.worker().TrialWorker);
        // before the sessions are stopped: the trials are let go, not judged as aborted
        const letGo = () => worker.letGo();
        process.prependOnceListener('SIGINT', letGo);
        process.prependOnceListener('SIGTERM', letGo);
        try {
          return await worker.work({
            slots: opts.slots ?? config.ollama.maxParallel ?? 1,
            name: opts.name,
            idleExitMs: opts.idleExit,
            onTrialFinished: (t) => progress.finished(t),
          });
        } finally {
          process.off('SIGINT', letGo);
          process.off('SIGTERM', letGo);
        }
      });
      process.stderr.write(`worker: ${result.ran} trial(s) taken${result.dead ? '; stopped: declared dead' : ''}\n`);
      setVerdict(result.dead ? EXIT.FAILED : EXIT.OK);
    });
}
