// Every dashboard JSON against what Grafana's file provisioning needs: a stable uid and title, no
// database id, panel ids unique (rows included), panels on the 24-column grid, every data source
// reference (panels, queries, variables, data links) naming a data source the provisioning files
// define, with its type, and every variable a query uses defined.
import {
  allPanels,
  dashboardFiles,
  dashboardProviders,
  loadDashboard,
  provisionedDatasources,
  variableQuery,
  type Dashboard,
  type DatasourceRef,
} from '../support/dashboards';

const datasources = provisionedDatasources();
const byUid = new Map(datasources.map((d) => [d.uid, d]));
const files = dashboardFiles();
const dashboards = files.map(loadDashboard);

/** names a query refers to as $name, ${name…} or [[name…]] (Grafana's own $__ names excluded) */
function referencedVariables(text: string): string[] {
  const names = [...text.matchAll(/\$(\w+)|\[\[(\w+?)(?::\w+)?\]\]|\${(\w+)(?:\.[^:^}]+)?(?::[^}]+)?}/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  return names.filter((n) => !n.startsWith('__'));
}

function expectKnownDatasource(ref: DatasourceRef | undefined, where: string): void {
  expect({ where, uid: ref?.uid, known: byUid.has(ref?.uid ?? '') }).toEqual({ where, uid: ref?.uid, known: true });
  expect({ where, type: ref?.type }).toEqual({ where, type: byUid.get(ref!.uid!)!.type });
}

describe('provisioning files', () => {
  it('define the Postgres and Tempo data sources, each with a unique uid', () => {
    expect(datasources.map((d) => d.type).sort()).toEqual(['grafana-postgresql-datasource', 'tempo']);
    expect(new Set(datasources.map((d) => d.uid)).size).toBe(datasources.length);
    for (const d of datasources) expect(d).toEqual(expect.objectContaining({ name: expect.any(String), url: expect.any(String) }));
  });

  it('load the dashboards from one file provider', () => {
    expect(dashboardProviders()).toEqual([expect.objectContaining({ type: 'file', options: { path: expect.stringMatching(/^\//) } })]);
    expect(files).toEqual(['loupe-capacity.json', 'loupe-models.json', 'loupe-overview.json', 'loupe-pathologies.json', 'loupe-session.json']);
  });
});

describe.each(dashboards.map((d) => [d.file, d] as [string, Dashboard]))('%s', (file, d) => {
  it('has a stable uid and title, unique across dashboards, and no database id', () => {
    expect(d.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(d.title).toEqual(expect.any(String));
    expect(dashboards.filter((o) => o.uid === d.uid)).toHaveLength(1);
    expect(dashboards.filter((o) => o.title === d.title)).toHaveLength(1);
    expect(d.id ?? null).toBeNull();
    expect(d.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(d.time).toEqual({ from: expect.any(String), to: expect.any(String) });
  });

  it('has unique panel ids, rows included, and every panel on the 24-column grid', () => {
    const panels = allPanels(d);
    const ids = panels.map((p) => p.id);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of panels) {
      expect({ title: p.title, ok: p.gridPos.x >= 0 && p.gridPos.w > 0 && p.gridPos.h > 0 && p.gridPos.x + p.gridPos.w <= 24 }).toEqual({
        title: p.title,
        ok: true,
      });
    }
  });

  it('refers only to provisioned data sources, with their types, in panels, queries and variables', () => {
    for (const p of allPanels(d).filter((x) => x.type !== 'row')) {
      expectKnownDatasource(p.datasource, `${file} panel "${p.title}"`);
      expect(p.targets?.length).toBeGreaterThan(0);
      expect(new Set(p.targets!.map((t) => t.refId)).size).toBe(p.targets!.length);
      for (const t of p.targets!) {
        expectKnownDatasource(t.datasource, `${file} panel "${p.title}" query ${t.refId}`);
        expect(t.datasource!.uid).toBe(p.datasource!.uid);
      }
    }
    for (const v of d.templating.list.filter((x) => x.type === 'query')) expectKnownDatasource(v.datasource, `${file} variable ${v.name}`);
  });

  it('has Postgres queries Grafana runs as written (raw SQL, a format, no comments) and Tempo queries with text', () => {
    for (const p of allPanels(d).filter((x) => x.type !== 'row')) {
      for (const t of p.targets!) {
        const where = `${file} panel "${p.title}"`;
        if (byUid.get(t.datasource!.uid!)!.type === 'tempo') {
          expect({ where, query: t.query?.trim() ? 'set' : 'empty' }).toEqual({ where, query: 'set' });
          continue;
        }
        expect({ where, rawQuery: t.rawQuery, format: ['table', 'time_series'].includes(t.format ?? '') }).toEqual({ where, rawQuery: true, format: true });
        expect({ where, sql: t.rawSql?.trim() ? 'set' : 'empty' }).toEqual({ where, sql: 'set' });
        // newer Grafana strips comments before expanding macros, older does not: keep SQL free of them
        expect({ where, comment: /--|\/\*/.test(t.rawSql!) }).toEqual({ where, comment: false });
      }
    }
  });

  it('defines every variable its queries and data links use, once', () => {
    const defined = d.templating.list.map((v) => v.name);
    expect(new Set(defined).size).toBe(defined.length);
    const texts = [
      ...allPanels(d).flatMap((p) => (p.targets ?? []).map((t) => t.rawSql ?? t.query ?? '')),
      ...d.templating.list.map(variableQuery),
    ];
    for (const name of texts.flatMap(referencedVariables)) expect({ name, defined: defined.includes(name) }).toEqual({ name, defined: true });
  });

  it('links traces to a provisioned Tempo data source', () => {
    for (const p of allPanels(d)) {
      for (const o of p.fieldConfig?.overrides ?? []) {
        for (const prop of o.properties.filter((x) => x.id === 'links')) {
          for (const link of prop.value as Array<{ url: string; title: string }>) {
            // links into the viewer and between dashboards are checked in dashboard-filters.spec.ts
            if (!link.url.startsWith('/explore')) continue;
            const panes = JSON.parse(new URL(link.url, 'http://grafana').searchParams.get('panes')!) as Record<
              string,
              { datasource: string; queries: Array<{ datasource: DatasourceRef; query: string }> }
            >;
            for (const pane of Object.values(panes)) {
              expect(byUid.get(pane.datasource)?.type).toBe('tempo');
              for (const q of pane.queries) {
                expectKnownDatasource(q.datasource, `${d.file} link "${link.title}"`);
                expect(q.query).toBe('${__value.raw}');
              }
            }
            expect(o.matcher).toEqual({ id: 'byName', options: 'trace_id' });
          }
        }
      }
    }
  });
});

describe('the session drill-down', () => {
  const d = dashboards.find((x) => x.uid === 'loupe-session')!;

  it('picks a session, derives its trace id, and shows that trace from Tempo', () => {
    const vars = Object.fromEntries(d.templating.list.map((v) => [v.name, v]));
    expect(vars.session).toEqual(expect.objectContaining({ type: 'query', multi: false, includeAll: false }));
    expect(variableQuery(vars.trace_id)).toContain("'$session'");
    const trace = allPanels(d).find((p) => p.type === 'traces')!;
    expect(byUid.get(trace.datasource!.uid!)!.type).toBe('tempo');
    expect(trace.targets![0].query).toBe('${trace_id}');
  });
});
