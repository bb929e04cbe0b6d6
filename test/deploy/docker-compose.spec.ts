// docker-compose.yml is for users (no Docker engine here): validate it with Debian's docker-compose
// where it is installed (.ci/run installs it; elsewhere the block is skipped with a printed reason).
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describeWithCommand } from '../support/system-tool';

const ROOT = path.join(__dirname, '..', '..');

function compose(...args: string[]): string {
  try {
    return execFileSync('docker-compose', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOUPE_ADMIN_TOKEN: 'x' } });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    throw new Error(`docker-compose ${args.join(' ')} failed: ${err.stderr ?? err.message}`);
  }
}

describeWithCommand('docker-compose', 'docker-compose.yml', () => {
  it('is valid', () => {
    expect(compose('config', '-q')).toBe('');
  });

  it('defines the team stack, with Loupe pointed at its Postgres, Ollama and collector', () => {
    expect(compose('config', '--services').trim().split('\n').sort()).toEqual([
      'grafana',
      'loupe',
      'ollama',
      'otel-collector',
      'postgres',
      'tempo',
    ]);
    const config = compose('config');
    expect(config).toContain('DATABASE_URL: postgres://loupe:loupe@postgres:5432/loupe');
    expect(config).toContain('OLLAMA_HOST: http://ollama:11434');
    expect(config).toContain('OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector:4318');
  });
});
