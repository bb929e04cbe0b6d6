import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { lazy } from '../lazy';

export function registerBenchCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('bench')
    .description('Run the benchmarks and print their figures (medians over repeated runs)')
    .argument('[names...]', 'only these suites')
    .option('--json', 'machine-readable output')
    .action(async (names: string[], opts: { json?: boolean }) => {
      await lazy.bench().runBenchmarks(getConfig(), { only: names, json: Boolean(opts.json) });
    });
}
