// `loupe doctor`: is OLLAMA_HOST ready for Loupe? Version, each model's capabilities, context,
// tool mode, weight against the slot limit, num_ctx fit and a timed one-turn probe. Without
// OLLAMA_HOST it checks a stand-in started for the purpose, and says so. Needs no database.
import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { EXIT, setVerdict } from '../exit-codes';
import { positiveInt } from './eval.command';

interface DoctorFlags {
  model?: string[];
  probe: boolean;
  numCtx?: number;
  json?: boolean;
}

// loaded when the command runs, so `--help` stays quick (as lazy.ts does for the other commands)
/* eslint-disable @typescript-eslint/no-require-imports */
const load = {
  doctor: () =>
    require('../../provider/ollama/doctor/doctor-for-config') as typeof import('../../provider/ollama/doctor/doctor-for-config'),
  table: () => require('../doctor-table') as typeof import('../doctor-table'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export function registerDoctorCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('doctor')
    .description('Check OLLAMA_HOST (or a stand-in when unset) for Loupe: version, models, tool mode, num_ctx fit, slots, a timed probe')
    .option('-m, --model <name...>', 'only these models (space- or comma-separated)', (v: string, all: string[] | undefined) => [
      ...(all ?? []),
      ...v
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ])
    .option('--num-ctx <n>', "also check this num_ctx against each model's context length (and probe with it)", (v) =>
      positiveInt(v, '--num-ctx'),
    )
    .option('--no-probe', 'skip the one-turn chat probe per model')
    .option('--json', 'print the report as JSON')
    .action(async (flags: DoctorFlags) => {
      const report = await load
        .doctor()
        .doctorForConfig(getConfig().ollama, { models: flags.model, probe: flags.probe, numCtx: flags.numCtx });
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : load.table().renderDoctorReport(report));
      // said on stderr too: a script reading only the exit code still gets the reason
      if (!report.reachable) process.stderr.write(`loupe: ${report.findings[0].message}\n`);
      setVerdict(report.level === 'fail' ? EXIT.FAILED : EXIT.OK);
    });
}
