import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { lazy } from '../lazy';

export function registerServeCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('serve')
    .description('Serve the HTTP API (same as `npm start`); port from LOUPE_PORT')
    .action(async () => {
      await lazy.server().bootstrapServer(getConfig());
    });
}
