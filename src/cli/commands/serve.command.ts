import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { lazy } from '../lazy';
import { trialsRunHere } from '../trials-here';

export function registerServeCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('serve')
    .description('Serve the HTTP API (same as `npm start`); port from LOUPE_PORT')
    .action(async () => {
      const config = getConfig();
      // the API runs eval trials in this process: their children recorded, a killed Loupe's swept
      trialsRunHere(config.home);
      await lazy.server().bootstrapServer(config);
    });
}
