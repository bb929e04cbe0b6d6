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

/**
 * Drops the app's database once it has closed: closing must leave no connection to it (one left open
 * keeps the jest worker alive, and jest cannot say which file left it). Postgres itself waits up to
 * 5 s for the database's last backends to exit before refusing; a refusal names what each one
 * still connected last ran.
 */
async function dropClosedDatabase(databaseUrl: string): Promise<void> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.LOUPE_TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE ${database}`);
  } catch (e) {
    const { rows } = await admin.query<{ pid: number; state: string; port: number; query: string }>(
      `SELECT pid, state, client_port AS port, left(query, 300) AS query FROM pg_stat_activity WHERE datname = $1`,
      [database],
    );
    const held = rows.map((r) => `pid ${r.pid} port ${r.port} ${r.state}: ${r.query}`).join('; ');
    throw new Error(`the app left ${rows.length} connection(s) to ${database} open after close (${(e as Error).message}): ${held}`);
  } finally {
    await admin.end();
  }
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
      await dropClosedDatabase(databaseUrl);
    },
  };
}
