// `loupe eval export RUN [-o FILE | --scenarios DIR]` and `loupe eval import FILE`: a recorded run
// to a gzipped JSON Lines file and back, or to scripted regression scenarios.
import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

export function registerRecordingCommands(evalCommand: Command, getConfig: () => LoupeConfig): void {
  evalCommand
    .command('export')
    .description('Write a recorded run (--record) as a gzipped JSON Lines file, or as scripted scenarios (--scenarios DIR)')
    .argument('<run>', 'the recorded run id')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--scenarios <dir>', 'write one scripted scenario per finished trial into DIR: the recorded replies as its script')
    .action(async (runId: string, opts: { out?: string; scenarios?: string }) => {
      if (opts.out && opts.scenarios) throw new UsageError('give -o/--out or --scenarios, not both');
      if (!opts.out && !opts.scenarios && process.stdout.isTTY)
        throw new UsageError('the export is gzip: redirect it (loupe eval export RUN > run.loupe.jsonl.gz) or give -o FILE');
      const { RecordingTransfer } = lazy.recordingTransfer();
      const { RecordingFileError } = lazy.recordingFile();
      await lazy.appContext().withAppContext(
        getConfig(),
        async (app) => {
          const transfer = app.get(RecordingTransfer);
          try {
            if (opts.scenarios) {
              const files = await transfer.exportScenarios(runId, opts.scenarios);
              for (const f of files) process.stdout.write(`${f}\n`);
              process.stderr.write(`${files.length} scenario(s) written to ${opts.scenarios}\n`);
              return;
            }
            const out = opts.out ? fs.createWriteStream(opts.out, { mode: 0o600 }) : process.stdout;
            const n = await transfer.exportRun(runId, out);
            process.stderr.write(`run ${runId}: ${n} exchanges exported${opts.out ? ` to ${opts.out}` : ''}\n`);
          } catch (e) {
            // no half-written or empty file left behind under the name asked for
            if (opts.out) fs.rmSync(opts.out, { force: true });
            if (e instanceof RecordingFileError) throw new UsageError((e as Error).message);
            throw e;
          }
        },
        { telemetry: false },
      );
    });

  evalCommand
    .command('import')
    .description('Import a recorded run from a file written by `loupe eval export`; prints its run id')
    .argument('<file>', 'the recording (.loupe.jsonl.gz)')
    .action(async (file: string) => {
      if (!fs.existsSync(file)) throw new UsageError(`${file}: no such file`);
      const { RecordingTransfer } = lazy.recordingTransfer();
      const { RecordingFileError } = lazy.recordingFile();
      await lazy.appContext().withAppContext(
        getConfig(),
        async (app) => {
          try {
            const r = await app.get(RecordingTransfer).importFile(file);
            process.stderr.write(
              r.imported ? `imported run ${r.runId}: ${r.exchanges} exchanges\n` : `run ${r.runId} was imported before\n`,
            );
            process.stdout.write(`${r.runId}\n`);
          } catch (e) {
            if (e instanceof RecordingFileError) throw new UsageError((e as Error).message);
            throw e;
          }
        },
        { telemetry: false },
      );
    });
}
