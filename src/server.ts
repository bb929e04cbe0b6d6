import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { configureHttpApp } from './admin/http/configure-http';
import { AppModule } from './app.module';
import { logLevelsFrom, StderrLogger } from './common/stderr-logger';
import type { LoupeConfig } from './config/loupe-config';
import { startTelemetry } from './telemetry/telemetry';

export async function bootstrapServer(config: LoupeConfig): Promise<INestApplication> {
  const telemetry = startTelemetry({ otlpEndpoint: config.otlpEndpoint });
  const logger = new StderrLogger('loupe', { logLevels: logLevelsFrom(config.logLevel ?? 'log') });
  const app = await NestFactory.create(AppModule.forRoot(config, { http: true }), { logger });
  app.enableShutdownHooks();
  configureHttpApp(app, config);
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    await telemetry.shutdown();
  };
  await app.listen(config.port, config.listenAddress);
  logger.log(`Loupe listening on ${await app.getUrl()}`, 'Bootstrap');
  return app;
}
