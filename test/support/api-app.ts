// The HTTP app as `loupe serve` runs it (same modules, same configureHttpApp), on a free loopback
// port with its own database and LOUPE_HOME, for API, WebSocket and viewer tests.
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { configureHttpApp } from '../../src/admin/http/configure-http';
import { AppModule } from '../../src/app.module';
import { loadConfig, type LoupeConfig } from '../../src/config/loupe-config';
import { createTestDatabase } from './test-app';
import { waitUntil } from './wait';

export const API_TOKEN = 'loupe-api-test-token';

export interface ApiApp {
  app: INestApplication;
  config: LoupeConfig;
  base: string;
  home: string;
  /** fetch with the bearer token (null: none) and a JSON body */
  call(method: string, route: string, body?: unknown, token?: string | null): Promise<Response>;
  close(): Promise<void>;
}

export async function startApiApp(env: Record<string, string> = {}): Promise<ApiApp> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-api-'));
  const config = loadConfig({
    LOUPE_HOME: home,
    DATABASE_URL: await createTestDatabase(),
    LOUPE_ADMIN_TOKEN: API_TOKEN,
    LOUPE_PORT: '0',
    LOUPE_RETRY_DELAY_SCALE: '0.01',
    LOUPE_JOURNAL_FLUSH_MS: '5',
    ...env,
  });
  const app = await NestFactory.create(AppModule.forRoot(config, { http: true }), { logger: ['error'] });
  configureHttpApp(app, config);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const call = (method: string, route: string, body?: unknown, token: string | null = API_TOKEN) =>
    fetch(`${base}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    app,
    config,
    base,
    home,
    call,
    close: async () => {
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The body of `res` as JSON, once its status is `status` (else an error quoting what came). */
export async function expectJson<T>(res: Response, status: number): Promise<T> {
  const body = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${body}`);
  return JSON.parse(body) as T;
}

/** Polls `probe` (an API read: nothing announces the state it reads) until it returns a value other than undefined. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  return waitUntil(probe, { what, timeoutMs });
}

/** A scripted session that writes a file only after a person approves it (write_file: ask). */
export const APPROVAL_SESSION = {
  prompt: 'Write the greeting to hello.txt.',
  permissions: { tools: { write_file: 'ask' } },
  files: { 'notes.txt': 'greeting: hello\n' },
  script: [
    { tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { tool_calls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hello' } }] },
    { content: 'I read notes.txt and wrote hello.txt.' },
  ],
};
