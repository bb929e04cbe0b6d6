import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { ADMIN_TOKEN } from './admin/admin-auth.guard';
import { configureHttpApp } from './admin/http/configure-http';
import { startupBanner } from './admin/http/startup-banner';
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
  const url = await app.getUrl();
  logger.log(`Loupe listening on ${url}`, 'Bootstrap');
  // where to click: the viewer (with its token on loopback) and the API explorer
  const banner = startupBanner({
    listenAddress: config.listenAddress,
    port: Number(new URL(url).port),
    token: app.get<string>(ADMIN_TOKEN),
    tokenFile: config.adminToken ? undefined : path.join(config.home, 'admin-token'),
  });
  process.stdout.write(`${banner.join('\n')}\n`);
  return app;
}
