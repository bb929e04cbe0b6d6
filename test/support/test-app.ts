// A real Loupe application context for integration tests: its own database in the test Postgres,
// its own LOUPE_HOME, the real modules, and an in-memory span exporter to assert on traces.
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AppModule } from '../../src/app.module';
import { loadConfig, type LoupeConfig } from '../../src/config/loupe-config';
import { startTelemetry } from '../../src/telemetry/telemetry';

export const spanExporter = new InMemorySpanExporter();
startTelemetry({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });

export async function createTestDatabase(): Promise<string> {
  const base = process.env.LOUPE_TEST_DATABASE_URL;
  if (!base) throw new Error('LOUPE_TEST_DATABASE_URL is not set (jest globalSetup starts the test Postgres)');
  const name = `loupe_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface TestApp {
  app: INestApplicationContext;
  config: LoupeConfig;
  home: string;
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-home-'));
  const databaseUrl = await createTestDatabase();
  const config = loadConfig({
    LOUPE_HOME: home,
    DATABASE_URL: databaseUrl,
    LOUPE_RETRY_DELAY_SCALE: '0.01',
    LOUPE_JOURNAL_FLUSH_MS: '5',
    ...env,
  });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, { http: false }), { logger: ['error'] });
  return {
    app,
    config,
    home,
    close: async () => {
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
