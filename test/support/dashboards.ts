// The Grafana files under dashboards/, read as Grafana's provisioning reads them: the data sources and
// dashboard providers (YAML) and every dashboard JSON the file provider loads (*.json in its folder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './run-cli';

export const DASHBOARDS_DIR = path.join(ROOT, 'dashboards');

export interface DatasourceRef {
  type?: string;
  uid?: string;
}

export interface Target {
  refId: string;
  datasource?: DatasourceRef;
  rawSql?: string;
  format?: string;
  rawQuery?: boolean;
  query?: string;
  queryType?: string;
}

export interface FieldOverride {
  matcher: { id: string; options: string };
  properties: Array<{ id: string; value: unknown }>;
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: DatasourceRef;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
  fieldConfig?: { defaults: Record<string, unknown>; overrides: FieldOverride[] };
  panels?: Panel[];
}

export interface Variable {
  name: string;
  type: string;
  datasource?: DatasourceRef;
  query?: string | { query?: string; rawSql?: string };
  multi?: boolean;
  includeAll?: boolean;
  allValue?: string | null;
  current?: { text?: unknown; value?: string | string[] };
  hide?: number;
}

export interface Dashboard {
  file: string;
  uid: string;
  title: string;
  id?: number | null;
  schemaVersion: number;
  time: { from: string; to: string };
  templating: { list: Variable[] };
  panels: Panel[];
}

export interface ProvisionedDatasource {
  name: string;
  uid: string;
  type: string;
  url: string;
  user?: string;
  jsonData?: Record<string, unknown>;
  secureJsonData?: Record<string, unknown>;
}

export function readYaml<T>(...parts: string[]): T {
  return parse(fs.readFileSync(path.join(...parts), 'utf8')) as T;
}

export function provisionedDatasources(): ProvisionedDatasource[] {
  return readYaml<{ datasources: ProvisionedDatasource[] }>(DASHBOARDS_DIR, 'provisioning', 'datasources', 'loupe.yaml').datasources;
}

export function dashboardProviders(): Array<{ name: string; type: string; folder?: string; options: { path: string } }> {
  return readYaml<{ providers: Array<{ name: string; type: string; folder?: string; options: { path: string } }> }>(
    DASHBOARDS_DIR,
    'provisioning',
    'dashboards',
    'loupe.yaml',
  ).providers;
}

export function dashboardFiles(): string[] {
  return fs
    .readdirSync(DASHBOARDS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export function loadDashboard(file: string): Dashboard {
  return { ...(JSON.parse(fs.readFileSync(path.join(DASHBOARDS_DIR, file), 'utf8')) as Omit<Dashboard, 'file'>), file };
}

/** Every panel, those inside rows included. */
export function allPanels(d: Dashboard): Panel[] {
  return d.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** The SQL (or other query text) of a variable, whichever shape Grafana saved it in. */
export function variableQuery(v: Variable): string {
  if (typeof v.query === 'string') return v.query;
  return v.query?.rawSql ?? v.query?.query ?? '';
}
