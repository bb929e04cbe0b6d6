// What every dashboard lets a researcher narrow and follow: a run (one, or all in the time range),
// models, profiles and configurations, used by every panel's query; hosts shown as series with the
// per-trial stand-ins as one; the latency split per model and per profile; links between the
// dashboards (keeping the selection and the time range) and into the viewer.
import { allPanels, dashboardFiles, loadDashboard, variableQuery, type Dashboard, type Panel } from '../support/dashboards';

const dashboards = dashboardFiles().map(loadDashboard);
const sqlOf = (p: Panel) => (p.targets ?? []).map((t) => t.rawSql ?? '').join('\n');
const queried = (d: Dashboard) => allPanels(d).filter((p) => p.type !== 'row' && p.targets?.some((t) => t.rawSql));

interface Link {
  title: string;
  type: string;
  url?: string;
  includeVars?: boolean;
  keepTime?: boolean;
}

describe.each(dashboards.map((d) => [d.title, d] as const))('%s', (_title, d) => {
  const vars = Object.fromEntries(d.templating.list.map((v) => [v.name, v]));

  it('has the run, model, profile and configuration variables, each narrowed by the ones before it', () => {
    expect(vars.run).toEqual(expect.objectContaining({ type: 'query', multi: false, includeAll: true, allValue: "'all'" }));
    expect(variableQuery(vars.run)).toMatch(/FROM eval_runs[\s\S]*ORDER BY started_at DESC/);
    for (const name of ['model', 'profile', 'config']) {
      expect(vars[name]).toEqual(expect.objectContaining({ type: 'query', multi: true, includeAll: true }));
      expect(variableQuery(vars[name])).toContain("($run = 'all' OR run_id::text = $run)");
    }
    expect(variableQuery(vars.profile)).toContain('model IN ($model)');
    expect(variableQuery(vars.config)).toContain('profile IN ($profile)');
    const names = d.templating.list.map((v) => v.name);
    expect(names.slice(0, 4)).toEqual(['run', 'model', 'profile', 'config']);
  });

  it("uses them in every panel's query: the run in each, models, profiles and configurations wherever it reads sessions", () => {
    const missing = queried(d).flatMap((p) => {
      const sql = sqlOf(p);
      const needs = ['$run'];
      // rows of sessions, trials, iterations, tool calls or a session's events (host events, such as pulls, have no session)
      if (/dashboard_sessions|dashboard_trials|\bFROM (iterations|tool_calls)\b|USING \(session_id\)/.test(sql)) needs.push('$model', '$profile', '$config');
      return needs.filter((v) => !sql.includes(v)).map((v) => `${p.title}: no ${v}`);
    });
    expect(missing).toEqual([]);
  });

  it('links to the other dashboards with the selection and the time range, and into the viewer', () => {
    const links = (d as unknown as { links: Link[] }).links;
    expect(links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'dashboards', includeVars: true, keepTime: true }),
        expect.objectContaining({ type: 'link', url: '${viewer}/#/runs' }),
        expect.objectContaining({ type: 'link', url: '${viewer}/#/run/${run}' }),
      ]),
    );
    expect(vars.viewer).toEqual(expect.objectContaining({ type: 'constant', query: expect.stringMatching(/^https?:\/\//) }));
    // a table naming a run or a session opens it in the viewer
    for (const p of queried(d).filter((x) => x.type === 'table')) {
      for (const column of ['run', 'session'] as const) {
        if (!new RegExp(`AS ${column}\\b`).test(sqlOf(p))) continue;
        const link = p.fieldConfig?.overrides.find((o) => o.matcher.options === column)?.properties.find((x) => x.id === 'links')?.value as
          | Array<{ url: string }>
          | undefined;
        expect({ panel: p.title, column, url: link?.[0]?.url }).toEqual({ panel: p.title, column, url: `\${viewer}/#/${column}/\${__value.raw}` });
      }
    }
  });

  it('shows hosts grouped: every per-trial stand-in as one `stand-in` series', () => {
    for (const p of queried(d)) {
      const sql = sqlOf(p);
      // a host column or series comes from the grouped host, never the raw one
      if (/\bhost\b/.test(sql))
        expect({ panel: p.title, grouped: /host_group|loupe_host_group\(/.test(sql) && !/s\.host\b|'host' AS host\b/.test(sql) }).toEqual({
          panel: p.title,
          grouped: true,
        });
    }
  });
});

describe('the latency split', () => {
  const models = dashboards.find((d) => d.uid === 'loupe-models')!;
  it.each(['model', 'profile'])('per %s: first token, prefill, decode and slot wait', (by) => {
    const panel = allPanels(models).find((p) => p.title.startsWith(`Latency split per ${by} `));
    expect(panel).toBeDefined();
    const sql = sqlOf(panel!);
    expect(sql).toMatch(new RegExp(`GROUP BY ${by}\\b`));
    for (const column of ['first_token_ms', 'prefill_ms', 'decode_ms', 'slot_wait_ms']) expect(sql).toContain(column);
  });
});
