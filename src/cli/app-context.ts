// The CLI's Nest application context: the same modules as the server, no HTTP, logs on stderr.
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppModule } from '../app.module';
import { logLevelsFrom, StderrLogger } from '../common/stderr-logger';
import type { LoupeConfig } from '../config/loupe-config';
import { startTelemetry } from '../telemetry/telemetry';
import { EXIT, setVerdict } from './exit-codes';
import { commandStopsItself } from './signal-stop';

export async function withAppContext<T>(
  config: LoupeConfig,
  fn: (app: INestApplicationContext) => Promise<T>,
  opts: { telemetry?: boolean } = {},
): Promise<T> {
  // read-only commands skip the OpenTelemetry SDK (about a second of start-up)
  const telemetry = opts.telemetry === false ? { shutdown: async () => {} } : startTelemetry({ otlpEndpoint: config.otlpEndpoint });
  const logger = new StderrLogger('loupe', { logLevels: logLevelsFrom(config.logLevel ?? 'warn') });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, { http: false }), { logger, abortOnError: false });
  let closing = false;
  const onSignal = (sig: NodeJS.Signals) => {
    // a command that stops itself (signal-stop.ts) closes the application once it has reported
    if (closing || commandStopsItself()) return;
    closing = true;
    logger.warn(`${sig}: stopping sessions and flushing the journal`);
    void app
      .close()
      .then(() => telemetry.shutdown())
      .finally(() => {
        setVerdict(EXIT.INTERRUPTED);
        process.exit(EXIT.INTERRUPTED);
      });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn(app);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!closing) {
      await app.close();
      await telemetry.shutdown();
    }
  }
}
