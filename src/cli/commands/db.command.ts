import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import { embeddedUserUrl } from '../../database/embedded/user-url';

export function registerDbCommand(program: Command, getConfig: () => LoupeConfig): void {
  const db = program.command('db').description('The database Loupe records into');
  db.command('url')
    .description('Print a connection URL for psql and other clients (the embedded Postgres: its app role and password)')
    .action(() => {
      const config = getConfig();
      if (config.databaseUrl) {
        process.stdout.write(`${config.databaseUrl}\n`);
        return;
      }
      const { url, running } = embeddedUserUrl(config.home);
      if (!running)
        process.stderr.write(
          'loupe: the embedded Postgres is not running now; it runs while a Loupe process uses it (e.g. `loupe serve`)\n',
        );
      process.stdout.write(`${url}\n`);
    });
}
