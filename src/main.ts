// `npm start`: the HTTP server. Configuration is validated before anything starts.
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/loupe-config';
import { bootstrapServer } from './server';

bootstrapServer(loadConfig()).catch((e: unknown) => {
  process.stderr.write(`loupe: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof ConfigError ? 2 : 1);
});
