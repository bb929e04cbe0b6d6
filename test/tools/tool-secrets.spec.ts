// Tools outside the command sandbox (external MCP servers, `sandbox: none` commands) must not reach
// Loupe's secrets: a stand-in Loupe process (tool-secrets-host.ts) holds known secret values in its
// initial environment and its LOUPE_HOME, and a hostile MCP server started through the real launch
// paths reads every /proc/<pid>/environ it can see (its ancestors' included), every file under
// LOUPE_HOME, another process's root (/proc/<pid>/root) and its own environment. None may show a secret.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/common/free-port';
import { ensureCredentials } from '../../src/database/embedded/credentials';
import { fallbackDataRoot } from '../../src/database/embedded/postgres-binaries';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { describeWithCommand } from '../support/system-tool';

const secret = (what: string) => `${what}-${randomBytes(12).toString('hex')}`;
const SECRETS = {
  envAdminToken: secret('env-admin-token'),
  dbPassword: secret('db-password'),
  otelHeader: secret('otel-header'),
  fileAdminToken: secret('file-admin-token'),
  pgData: secret('pg-data'),
  otherSession: secret('other-session'),
  fallbackPgData: secret('fallback-pg-data'),
};

const ROOT = path.join(__dirname, '..', '..');
const SPY = path.join(__dirname, 'secret-spy-server.js');
const HOST = path.join(__dirname, 'tool-secrets-host.ts');
const REGISTER = path.join(ROOT, 'test', 'support', 'ts-register.js');

let home: string;
let credentialSecrets: string[];
let read: Record<'ownEnviron' | 'stdio' | 'none' | 'http', string>;

function runHost(workspace: string, port: number): Promise<string> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LOUPE_HOME: home,
    DATABASE_URL: `postgres://loupe_app:${SECRETS.dbPassword}@127.0.0.1:1/loupe`,
    LOUPE_ADMIN_TOKEN: SECRETS.envAdminToken,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${SECRETS.otelHeader}`,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', REGISTER, HOST, SPY, workspace, String(port)], { env, cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`host exited with ${code}: ${err.slice(-2_000)}`))));
  });
}

describeWithCommand('bwrap', 'tools started by Loupe cannot read its secrets', () => {
  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tool-secrets-'));
    fs.writeFileSync(path.join(home, 'admin-token'), `${SECRETS.fileAdminToken}\n`, { mode: 0o600 });
    const creds = ensureCredentials(home);
    credentialSecrets = Object.values(creds).filter((v): v is string => typeof v === 'string' && v.length >= 12);
    fs.mkdirSync(path.join(home, 'pg'), { recursive: true });
    fs.writeFileSync(path.join(home, 'pg', 'postgresql.auto.conf'), `# ${SECRETS.pgData}\n`);
    await createWorkspace(home, 'other-session', { 'notes.txt': SECRETS.otherSession });
    const workspace = await createWorkspace(home, 'this-session', { 'notes.txt': 'this session may read me\n' });
    fs.mkdirSync(path.join(fallbackDataRoot(home), 'pg'), { recursive: true });
    fs.writeFileSync(path.join(fallbackDataRoot(home), 'pg', 'pg_hba.conf'), `# ${SECRETS.fallbackPgData}\n`);
    const out = await runHost(workspace, await freePort());
    read = JSON.parse(out.slice(out.lastIndexOf('\nRESULT ') + '\nRESULT '.length)) as typeof read;
  }, 120_000);
  afterAll(() => {
    if (!home) return;
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(fallbackDataRoot(home), { recursive: true, force: true });
  });

  const allSecrets = () => [...Object.values(SECRETS), ...credentialSecrets];

  it('stages a Loupe that does hold the secrets (else the checks below prove nothing)', () => {
    expect(credentialSecrets.length).toBeGreaterThan(0);
    for (const s of [SECRETS.envAdminToken, SECRETS.dbPassword, SECRETS.otelHeader]) expect(read.ownEnviron).toContain(s);
  });

  describe.each([
    ['an external stdio MCP server', 'stdio', 'stdio-own-env'],
    ['a Streamable HTTP MCP server Loupe starts', 'http', 'http-own-env'],
    ['a `sandbox: none` command', 'none', 'none-own-env'],
  ] as const)('%s', (_what, channel, ownMark) => {
    it('read environs and files (its own environment and its session workspace)', () => {
      const text = read[channel];
      // the spy works: it read its own /proc/<pid>/environ and the files it may see
      expect(text).toMatch(/== summary environs=[1-9]/);
      expect(text).toContain(`SPY_MARK=${ownMark}`);
      if (channel !== 'http') expect(text).toContain('this session may read me');
    });

    it('found no secret: not in any environ, not under LOUPE_HOME, not through another process', () => {
      const text = read[channel];
      const leaked = allSecrets().filter((s) => text.includes(s));
      expect(leaked).toEqual([]);
      // and not even the names of the variables that hold them
      expect(text).not.toMatch(/DATABASE_URL|LOUPE_ADMIN_TOKEN|OTEL_EXPORTER_OTLP_HEADERS/);
    });

    it('sees no ancestor but its wrapper (a PID namespace of its own)', () => {
      const ancestors = /ancestors=([\d,]*)/.exec(read[channel])?.[1].split(',').filter(Boolean) ?? [];
      expect(ancestors.length).toBeGreaterThan(0);
      expect(ancestors.map(Number).every((pid) => pid < 10)).toBe(true);
    });
  });
});
