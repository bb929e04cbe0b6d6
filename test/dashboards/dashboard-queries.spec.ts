// Every dashboard panel's SQL, run against a real Postgres loaded with a scripted run: two models ×
// two loop profiles over loop-control, nudge, hallucination and overflow scenarios, then a run of
// fault and capacity scenarios (a 503 retried, a provider error, text-mode tool calls repaired, slot
// queueing, GPU detection, a refused overflow, a doom-loop ask), plus model pulls and a delete against
// a stand-in. Variables are resolved as Grafana resolves them (their own queries, All, the first
// option), the SQL is expanded as Grafana expands it (test/support/grafana-sql.ts), and a panel whose
// query errors or returns no rows fails. Row counts per panel go to test-output/dashboard-queries.json.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, type QueryResult } from 'pg';
import { StandinServer } from '../../src/standin/standin-server';
import { DEFAULT_STANDIN_CATALOG } from '../../src/standin/standin-catalog';
import type { StandinModel } from '../../src/standin/standin-script';
import { allPanels, dashboardFiles, loadDashboard, provisionedDatasources, variableQuery, type Dashboard, type Panel } from '../support/dashboards';
import { wilson } from '../../src/eval/statistics/proportion';
import { expandMacros, interpolateVariables, type TimeRange, type VariableValue } from '../support/grafana-sql';
import { ROOT, runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const S = path.join(ROOT, 'scenarios');
const MATRIX = [
  'direct-process/normal-tool-loop-completion',
  'direct-process/repeat-detection-breaks-loop',
  'loop-control/same-tool-break',
  'loop-control/cycle-break',
  'loop-control/error-repeat-break',
  'loop-control/max-iterations',
  'nudges/promised-action',
  'nudges/nudges-exhausted',
  'direct-process/hallucination-mid-chain-nudge',
  'context/context-overflow-guard',
].map((s) => path.join(S, `${s}.yaml`));
const FAULTS = [
  'ollama-provider/text-based-tool-calling-qwen3',
  'ollama-provider/retry-on-transient-error',
  'direct-process/provider-error-mid-loop',
  'ollama-provider/weight-based-slot-queueing',
  'ollama-provider/gpu-auto-detection',
  'gemini-cli/will-overflow-refused',
  'stream-processor/doom-loop-asks-permission',
].map((s) => path.join(S, `${s}.yaml`));

const tempoUids = new Set(provisionedDatasources().filter((d) => d.type === 'tempo').map((d) => d.uid));
const dashboards = dashboardFiles().map(loadDashboard);
const NUMERIC_OIDS = new Set([20, 21, 23, 700, 701, 1700]);

/** Grafana's relative time: now, now-7d, now-6h… */
function relative(expr: string, now: number): Date {
  if (expr === 'now') return new Date(now);
  const m = /^now-(\d+)([mhdw])$/.exec(expr);
  if (!m) throw new Error(`time ${expr}: this test reads now and now-N(m|h|d|w)`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 'm' | 'h' | 'd' | 'w'];
  return new Date(now - Number(m[1]) * unit);
}

const rowCounts: Record<string, Record<string, number>> = {};

describe('dashboard queries on a scripted run (Grafana expansion, real Postgres)', () => {
  let tmp: string;
  let db: Client;
  let selections: Record<string, Record<string, string>>;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-dashboards-'));
    const env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home') };
    // model pulls and a delete, against a stand-in that has one model to download
    const phi3: StandinModel = {
      name: 'phi3:mini',
      family: 'phi3',
      parameterSize: '3.8B',
      quantization: 'Q4_0',
      capabilities: ['completion'],
      sizeBytes: 2_176_178_913,
      installed: false,
    };
    const catalog = [...DEFAULT_STANDIN_CATALOG, phi3];
    const standin = new StandinServer({ catalog, pull: { stepMs: 1, progressSteps: 4 } });
    const { url } = await standin.start(0);
    try {
      for (const args of [['models', 'pull', 'phi3:mini'], ['models', 'pull', 'qwen3:8b'], ['models', 'rm', 'gemma:2b']]) {
        const r = await runCli(args, { ...env, OLLAMA_HOST: url });
        if (r.code !== 0) throw new Error(`loupe ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      }
    } finally {
      await standin.stop();
    }
    const matrix = await runCli(['eval', ...MATRIX, '-m', 'llama3.1:8b', 'qwen3:8b', '--set', 'profile=loupe,corvid', '-c', '4', '--json'], env, {
      timeoutMs: 180_000,
    });
    const faults = await runCli(['eval', ...FAULTS, '-c', '2', '--json'], env, { timeoutMs: 180_000 });
    for (const [name, r] of [['matrix', matrix], ['faults', faults]] as const) {
      // 1 = some trial failed: still a recorded run; anything else is not
      if (r.code !== 0 && r.code !== 1) throw new Error(`the ${name} run exited ${r.code}: ${r.stderr}`);
    }
    const trials = JSON.parse(matrix.stdout).trials as Array<{ scenarioId: string; model: string; profile: string; sessionId: string }>;
    expect(trials).toHaveLength(MATRIX.length * 2 * 2);
    // a user drilling into one session picks it from the list: the normal tool loop, so every panel has rows
    const picked = trials.find((t) => t.scenarioId === 'direct-process/normal-tool-loop-completion' && t.model === 'qwen3:8b' && t.profile === 'loupe')!;
    selections = { 'loupe-session': { session: picked.sessionId } };
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  }, 400_000);

  afterAll(async () => {
    await db?.end();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    const out = path.join(ROOT, 'test-output');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'dashboard-queries.json'), `${JSON.stringify(rowCounts, null, 2)}\n`);
    const lines = Object.entries(rowCounts).flatMap(([dash, panels]) => Object.entries(panels).map(([p, n]) => `${String(n).padStart(5)}  ${dash} › ${p}`));
    process.stderr.write(`dashboard panels, rows returned on the scripted run:\n${lines.join('\n')}\n`);
  });

  it("gives the same 95% Wilson interval in SQL (loupe_wilson_lo/hi) as the eval's statistics", async () => {
    const { rows } = await db.query<{ s: number; n: number; lo: number | null; hi: number | null }>(
      'SELECT s, n, loupe_wilson_lo(s, n) AS lo, loupe_wilson_hi(s, n) AS hi FROM generate_series(0, 40) n, generate_series(0, n) s',
    );
    expect(rows.length).toBe(861);
    for (const r of rows) {
      const w = wilson(r.s, r.n);
      if (r.n === 0) expect([r.lo, r.hi, w.lo, w.hi]).toEqual([null, null, null, null]);
      else {
        expect(r.lo).toBeCloseTo(w.lo!, 12);
        expect(r.hi).toBeCloseTo(w.hi!, 12);
      }
    }
  });

  describe.each(dashboards.map((d) => [d.title, d] as [string, Dashboard]))('%s', (_title, d) => {
    const variables: Record<string, VariableValue> = {};
    let range: TimeRange;
    const counts = (rowCounts[d.uid] = {} as Record<string, number>);

    const run = async (sql: string): Promise<QueryResult> => {
      const expanded = expandMacros(interpolateVariables(sql, variables), range);
      try {
        return await db.query(expanded);
      } catch (e) {
        throw new Error(`${(e as Error).message}\n--- the query as Grafana would run it:\n${expanded}`);
      }
    };

    beforeAll(async () => {
      range = { from: relative(d.time.from, Date.now()), to: relative(d.time.to, Date.now()) };
      // in dashboard order, each variable's query seeing the ones before it (refresh on time range change)
      for (const v of d.templating.list) {
        const current = v.current?.value;
        if (v.type === 'interval') {
          variables[v.name] = { multi: false, includeAll: false, current: String(current), options: [String(current)] };
          continue;
        }
        if (v.type === 'constant') {
          variables[v.name] = { multi: false, includeAll: false, current: variableQuery(v), options: [variableQuery(v)] };
          continue;
        }
        expect({ variable: v.name, type: v.type }).toEqual({ variable: v.name, type: 'query' });
        const result = await run(variableQuery(v));
        const valueColumn = result.fields.some((f) => f.name === '__value') ? '__value' : result.fields[0].name;
        const options = result.rows.map((r) => String(r[valueColumn]));
        counts[`variable ${v.name}`] = options.length;
        expect({ variable: v.name, options: options.length > 0 }).toEqual({ variable: v.name, options: true });
        const chosen = selections[d.uid]?.[v.name];
        if (chosen !== undefined) expect(options).toContain(chosen);
        const all = v.includeAll && (current === '$__all' || (Array.isArray(current) && current[0] === '$__all'));
        const value = all ? '$__all' : (chosen ?? options[0]);
        variables[v.name] = {
          multi: Boolean(v.multi),
          includeAll: Boolean(v.includeAll),
          allValue: v.allValue ?? null,
          current: v.multi ? [value] : value,
          options,
        };
      }
    });

    const panels = allPanels(d).filter((p) => p.type !== 'row');
    it.each(panels.map((p) => [p.title, p] as [string, Panel]))('%s', async (title, p) => {
      let rows = 0;
      for (const t of p.targets!) {
        if (tempoUids.has(t.datasource!.uid!)) {
          // Tempo gets the trace id of the chosen session
          const traceId = interpolateVariables(t.query!, variables);
          expect(traceId).toMatch(/^[0-9a-f]{32}$/);
          const found = await db.query('SELECT count(*)::int AS n FROM sessions WHERE trace_id = $1', [traceId]);
          expect(found.rows[0].n).toBe(1);
          rows += found.rows[0].n;
          continue;
        }
        const result = await run(t.rawSql!);
        expect({ panel: title, rows: result.rowCount }).toEqual({ panel: title, rows: expect.any(Number) });
        expect({ panel: title, empty: result.rowCount === 0 }).toEqual({ panel: title, empty: false });
        rows += result.rowCount!;
        const columns = result.fields.map((f) => f.name);
        if (t.format === 'time_series') {
          // Grafana's SQL backend: a `time` column, ascending, and every other column but `metric` a number
          expect(columns).toContain('time');
          const times = result.rows.map((r) => Number(r.time));
          expect(times).toEqual([...times].sort((a, b) => a - b));
          for (const f of result.fields.filter((x) => x.name !== 'time' && x.name !== 'metric'))
            expect({ column: f.name, numeric: NUMERIC_OIDS.has(f.dataTypeID) }).toEqual({ column: f.name, numeric: true });
        }
        if (columns.includes('trace_id')) {
          // every row that names a trace links to it in Tempo
          const link = p.fieldConfig?.overrides.find((o) => o.matcher.options === 'trace_id' && o.properties.some((x) => x.id === 'links'));
          expect({ panel: title, linksToTempo: Boolean(link) }).toEqual({ panel: title, linksToTempo: true });
          for (const r of result.rows) expect(r.trace_id).toMatch(/^[0-9a-f]{32}$/);
        }
      }
      counts[title] = rows;
      // local mode: every per-trial stand-in is one host, `stand-in`, never a series of its own
      if (d.uid === 'loupe-capacity' || d.uid === 'loupe-models') {
        for (const t of p.targets!) {
          if (!t.rawSql || !/\bhost\b/.test(t.rawSql)) continue;
          const result = await run(t.rawSql);
          const column = result.fields.some((f) => f.name === 'host') ? 'host' : result.fields.some((f) => f.name === 'metric') && /host AS metric/.test(t.rawSql) ? 'metric' : undefined;
          if (column) expect({ panel: title, hosts: [...new Set(result.rows.map((r) => r[column]))] }).toEqual({ panel: title, hosts: ['stand-in'] });
        }
      }
    });

    // the run variable's other choice (All where one run is the default, the newest run where All is):
    // every query still runs as Grafana would send it (a run may lack what a panel shows: rows may be none)
    it.each(panels.map((p) => [p.title, p] as [string, Panel]))('%s, with the other run choice', async (_title, p) => {
      const runVar = variables.run;
      expect(runVar).toBeDefined();
      const saved = runVar.current;
      runVar.current = saved === '$__all' ? runVar.options[0] : '$__all';
      try {
        for (const t of p.targets!) if (t.rawSql) await run(t.rawSql);
      } finally {
        runVar.current = saved;
      }
    });
  });
});
