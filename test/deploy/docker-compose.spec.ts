// docker-compose.yml is for users (no Docker engine here). Two checks: the files that must agree do
// (compose services, ports and mounts ↔ Grafana's provisioning ↔ the collector and Tempo configs ↔
// Loupe's environment ↔ the Dockerfile), read as YAML on any machine; and Debian's docker-compose
// validates the file where it is installed (.ci/run installs it; elsewhere that block is skipped with
// a printed reason).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { dashboardProviders, provisionedDatasources, readYaml } from '../support/dashboards';
import { describeWithCommand } from '../support/system-tool';

const ROOT = path.join(__dirname, '..', '..');
const ENV = { LOUPE_ADMIN_TOKEN: 'x' };

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  profiles?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

/** Compose's variable substitution: ${NAME}, ${NAME:-default}, ${NAME:?error} */
function substitute(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    if (env[name]) return env[name];
    if (op === '-') return arg ?? '';
    if (op === '?') throw new Error(`${name}: ${arg}`);
    return '';
  });
}

const compose = parse(substitute(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), ENV)) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

/** the container ports a service offers to the compose network */
function containerPorts(s: Service): number[] {
  return [...(s.expose ?? []).map(Number), ...(s.ports ?? []).map((p) => Number(p.split(':').pop()))];
}

function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url.includes('://') ? url : `tcp://${url}`);
  return { host: u.hostname, port: Number(u.port) };
}

function dependsOn(s: Service): string[] {
  return Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
}

/** `./host/path:/container/path[:ro]` bind mounts of a service */
function binds(s: Service): Array<{ source: string; target: string }> {
  return (s.volumes ?? [])
    .filter((v) => v.startsWith('./'))
    .map((v) => {
      const [source, target] = v.split(':');
      return { source: path.join(ROOT, source), target };
    });
}

describe('docker-compose.yml agrees with the files it runs', () => {
  const datasources = provisionedDatasources();
  const pg = datasources.find((d) => d.type === 'grafana-postgresql-datasource')!;
  const tempoDs = datasources.find((d) => d.type === 'tempo')!;
  const collector = readYaml<{
    receivers: { otlp: { protocols: { http: { endpoint: string } } } };
    exporters: Record<string, { endpoint: string }>;
    service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
  }>(ROOT, 'dashboards', 'otel-collector.yaml');
  const tempo = readYaml<{
    server: { http_listen_port: number };
    distributor: { receivers: { otlp: { protocols: { grpc: { endpoint: string } } } } };
  }>(ROOT, 'dashboards', 'tempo.yaml');
  const loupeEnv = services.loupe.environment!;

  it('runs the team stack: Postgres, Ollama, the collector, Tempo, Grafana, Loupe, and loupe eval on demand', () => {
    expect(Object.keys(services).sort()).toEqual([
      'grafana',
      'loupe',
      'loupe-eval',
      'ollama',
      'otel-collector',
      'postgres',
      'tempo',
      'tempo-init',
    ]);
    expect(services['loupe-eval'].profiles).toEqual(['eval']); // not started by `up`
  });

  it('serves each provisioned data source from a compose service on a port it offers, with its credentials', () => {
    const { host: pgHost, port: pgPort } = hostPort(pg.url);
    expect(containerPorts(services[pgHost])).toContain(pgPort);
    const env = services[pgHost].environment!;
    expect([pg.user, pg.secureJsonData?.password, pg.jsonData?.database]).toEqual([
      env.POSTGRES_USER,
      env.POSTGRES_PASSWORD,
      env.POSTGRES_DB,
    ]);
    const { host: tempoHost, port: tempoPort } = hostPort(tempoDs.url);
    expect(containerPorts(services[tempoHost])).toContain(tempoPort);
    expect(tempo.server.http_listen_port).toBe(tempoPort);
    expect(dependsOn(services.grafana).sort()).toEqual([pgHost, tempoHost].sort());
  });

  it('sends traces Loupe → collector (OTLP/HTTP) → Tempo (OTLP/gRPC) on the ports each listens on', () => {
    const otlp = hostPort(loupeEnv.OTEL_EXPORTER_OTLP_ENDPOINT);
    expect(hostPort(collector.receivers.otlp.protocols.http.endpoint).port).toBe(otlp.port);
    expect(containerPorts(services[otlp.host])).toContain(otlp.port);
    const pipeline = collector.service.pipelines.traces;
    expect(pipeline.receivers).toEqual(['otlp']);
    expect(pipeline.exporters).toHaveLength(1);
    const exporter = collector.exporters[pipeline.exporters[0]];
    expect(pipeline.exporters[0]).toMatch(/^otlp_grpc(\/|$)/);
    const toTempo = hostPort(exporter.endpoint);
    expect(services[toTempo.host].image).toMatch(/^grafana\/tempo:/);
    expect(hostPort(tempo.distributor.receivers.otlp.protocols.grpc.endpoint).port).toBe(toTempo.port);
    expect(containerPorts(services[toTempo.host])).toContain(toTempo.port);
  });

  it('points Loupe at the compose Postgres, Ollama and collector, with the admin token from the environment', () => {
    const db = new URL(loupeEnv.DATABASE_URL);
    const pgEnv = services[db.hostname].environment!;
    expect([db.username, db.password, db.pathname.slice(1)]).toEqual([pgEnv.POSTGRES_USER, pgEnv.POSTGRES_PASSWORD, pgEnv.POSTGRES_DB]);
    expect(containerPorts(services[db.hostname])).toContain(Number(db.port));
    const ollama = hostPort(loupeEnv.OLLAMA_HOST);
    expect(services[ollama.host].image).toMatch(/ollama\/ollama/);
    expect(containerPorts(services[ollama.host])).toContain(ollama.port);
    expect(loupeEnv.LOUPE_ADMIN_TOKEN).toBe(ENV.LOUPE_ADMIN_TOKEN);
    const raw = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(raw).toMatch(/LOUPE_ADMIN_TOKEN: \$\{LOUPE_ADMIN_TOKEN:\?/); // required, never defaulted
    expect(services['loupe-eval'].environment).toEqual(loupeEnv);
    expect(dependsOn(services.loupe)).toEqual(expect.arrayContaining([db.hostname, ollama.host]));
  });

  it('health-checks Loupe on the port it listens on, on every interface of its container', () => {
    const port = Number(loupeEnv.LOUPE_PORT);
    expect(loupeEnv.LOUPE_LISTEN_ADDRESS).toBe('0.0.0.0');
    expect(containerPorts(services.loupe)).toContain(port);
    expect(services.loupe.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/health`);
    expect(services['loupe-eval'].entrypoint).toEqual(['node', 'bin/loupe.js', 'eval']);
  });

  it('mounts the provisioning and dashboard files where Grafana and the provider look, and every mounted file exists', () => {
    const grafana = binds(services.grafana);
    expect(grafana).toContainEqual({ source: path.join(ROOT, 'dashboards', 'provisioning'), target: '/etc/grafana/provisioning' });
    const [provider] = dashboardProviders();
    expect(grafana).toContainEqual({ source: path.join(ROOT, 'dashboards'), target: provider.options.path });
    const home = services.grafana.environment!.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH;
    expect(home.startsWith(`${provider.options.path}/`)).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'dashboards', home.slice(provider.options.path.length + 1)))).toBe(true);
    for (const s of Object.values(services))
      for (const b of binds(s)) expect({ mount: b.source, exists: fs.existsSync(b.source) }).toEqual({ mount: b.source, exists: true });
    for (const v of Object.values(services)
      .flatMap((s) => s.volumes ?? [])
      .filter((x) => !x.startsWith('./'))) {
      expect(Object.keys(compose.volumes)).toContain(v.split(':')[0]);
    }
  });

  it('builds Loupe from this checkout: what the Dockerfile copies exists, it runs unprivileged and health-checks itself', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) expect({ copy: c, exists: fs.existsSync(path.join(ROOT, c)) }).toEqual({ copy: c, exists: true });
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
    expect(dockerfile).toMatch(/\/health/);
    expect(services.loupe.build).toEqual(expect.objectContaining({ context: '.' }));
  });
});

function runCompose(args: string[], env: Record<string, string | undefined> = ENV): string {
  try {
    const clean = { ...process.env, ...env };
    for (const [k, v] of Object.entries(clean)) if (v === undefined) delete clean[k];
    return execFileSync('docker-compose', args, {
      cwd: ROOT,
      encoding: 'utf8',
      env: clean as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    throw new Error(`docker-compose ${args.join(' ')} failed: ${err.stderr ?? err.message}`);
  }
}

describeWithCommand('docker-compose', 'docker-compose.yml (validated by docker-compose)', () => {
  it('is valid, alone and with the GPU override', () => {
    expect(runCompose(['config', '-q'])).toBe('');
    expect(runCompose(['-f', 'docker-compose.yml', '-f', 'docker-compose.gpu.yml', 'config', '-q'])).toBe('');
  });

  it('resolves to the stack the consistency checks read', () => {
    expect(runCompose(['config', '--services']).trim().split('\n').sort()).toEqual(Object.keys(services).sort());
    const config = runCompose(['config']);
    expect(config).toContain('DATABASE_URL: postgres://loupe:loupe@postgres:5432/loupe');
    expect(config).toContain('OLLAMA_HOST: http://ollama:11434');
    expect(config).toContain('OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector:4318');
    expect(config).toContain('LOUPE_ADMIN_TOKEN: x');
  });

  it('refuses to start without an admin token, naming it', () => {
    expect(() => runCompose(['config', '-q'], { LOUPE_ADMIN_TOKEN: undefined })).toThrow(/set LOUPE_ADMIN_TOKEN/);
  });
});
