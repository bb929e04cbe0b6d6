// How Grafana turns a Postgres panel's SQL into the query it runs, so tests run exactly that:
// 1. in the browser, template variables are replaced (templateSrv.replace with the SQL data source's
//    interpolateVariable: a multi-value or include-All variable becomes quoted literals joined by
//    commas, a single value is inserted with its quotes doubled but unquoted, `${v:format}` picks a
//    format; names that are no variable stay as they are);
// 2. in the server, $__interval_ms, $__interval, $__unixEpochFrom() and $__unixEpochTo() are replaced
//    (sqleng.Interpolate), then every `$name(args)` macro of the Postgres macro engine
//    (pkg/tsdb/grafana-postgresql-datasource/macros.go), an unknown one being an error.
// $__interval depends on the panel's width in pixels: dashboards use an interval variable instead, and
// SQL that uses it is refused here.

export interface TimeRange {
  from: Date;
  to: Date;
}

export interface VariableValue {
  multi: boolean;
  includeAll: boolean;
  /** customAllValue: inserted as it is when All is selected */
  allValue?: string | null;
  /** what Grafana stores: a string for a single-value variable, an array for a multi-value one; '$__all' for All */
  current: string | string[];
  /** every option's value (what All stands for without a custom all value) */
  options: string[];
}

export class GrafanaInterpolationError extends Error {}

/** Go's time.Format(time.RFC3339Nano) of a UTC time: the fraction's trailing zeros dropped. */
export function rfc3339Nano(d: Date): string {
  const iso = d.toISOString(); // 2018-04-12T18:00:00.500Z
  const [whole, frac] = iso.slice(0, -1).split('.');
  const trimmed = (frac ?? '').replace(/0+$/, '');
  return `${whole}${trimmed ? `.${trimmed}` : ''}Z`;
}

/** Go's fmt %v of a float64: shortest digits, exponent form below 1e-4 and from 1e6 (e.g. 1.0368e+06). */
export function goFloat(x: number): string {
  if (x === 0) return '0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(x);
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** gtime.ParseInterval in seconds: `Nd`/`Nw`, or a Go duration ("5m", "1h30m", "0.5s"). */
export function parseGoInterval(text: string): number {
  const calendar = /^(\d+)([dwMy])$/.exec(text);
  if (calendar) {
    const n = Number(calendar[1]);
    if (calendar[2] === 'd') return n * 86400;
    if (calendar[2] === 'w') return n * 7 * 86400;
    throw new GrafanaInterpolationError(`interval ${text}: months and years depend on the calendar; use days`);
  }
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let seconds = 0;
  let pos = 0;
  while (pos < text.length) {
    part.lastIndex = pos;
    const m = part.exec(text);
    if (!m) throw new GrafanaInterpolationError(`error parsing interval ${text}`);
    seconds += Number(m[1]) * DURATION_UNITS[m[2]];
    pos = part.lastIndex;
  }
  if (!text) throw new GrafanaInterpolationError('error parsing interval (empty)');
  return seconds;
}

const quoteLiteral = (v: string) => `'${v.replace(/'/g, "''")}'`;

function formatValue(name: string, v: VariableValue, format: string | undefined): string {
  const isAll = v.current === '$__all' || (Array.isArray(v.current) && v.current.length === 1 && v.current[0] === '$__all');
  if (isAll && v.allValue && format === undefined) return v.allValue; // a custom all value goes in unformatted
  const value: string | string[] = isAll ? (v.allValue ? v.allValue : v.options) : v.current;
  if (format === undefined) {
    // SqlDatasource.interpolateVariable
    if (typeof value === 'string') return v.multi || v.includeAll ? quoteLiteral(value) : value.replace(/'/g, "''");
    return value.map(quoteLiteral).join(',');
  }
  const values = typeof value === 'string' ? [value] : value;
  switch (format) {
    case 'raw':
    case 'csv':
      return values.join(',');
    case 'singlequote':
      return values.map((x) => `'${x.replace(/'/g, "\\'")}'`).join(',');
    case 'sqlstring':
      return values.map(quoteLiteral).join(',');
    default:
      throw new GrafanaInterpolationError(`\${${name}:${format}}: this test supports raw, csv, singlequote and sqlstring`);
  }
}

// templateSrv's variable pattern: $name, [[name:format]], ${name.path:format}
const VARIABLE = /\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\${(\w+)(?:\.([^:^}]+))?(?::([^}]+))?}/g;

/** Step 1 (browser): template variables. Unknown names (Grafana's own $__ macros) are left alone. */
export function interpolateVariables(sql: string, variables: Record<string, VariableValue>): string {
  return sql.replace(VARIABLE, (match, v1?: string, v2?: string, f2?: string, v3?: string, path?: string, f3?: string) => {
    const name = v1 ?? v2 ?? v3!;
    if (name === '__interval' || name === '__interval_ms')
      throw new GrafanaInterpolationError(`$${name} depends on the panel's width; use an interval variable (e.g. $bucket)`);
    const v = variables[name];
    if (!v) return match;
    if (path) throw new GrafanaInterpolationError(`${match}: field paths are not used with SQL variables`);
    return formatValue(name, v, f2 ?? f3);
  });
}

// the macro engine's pattern: $name(args), args up to the first ')'
const MACRO = /\$([_a-zA-Z0-9]+)\(([^)]*)\)/g;

/** Step 2 (server): sqleng.Interpolate, then the Postgres macro engine. */
export function expandMacros(sql: string, range: TimeRange): string {
  const from = rfc3339Nano(range.from);
  const to = rfc3339Nano(range.to);
  let out = sql
    .split('$__unixEpochFrom()')
    .join(String(Math.floor(range.from.getTime() / 1000)))
    .split('$__unixEpochTo()')
    .join(String(Math.floor(range.to.getTime() / 1000)));
  if (out.includes('$__interval')) throw new GrafanaInterpolationError('$__interval depends on the panel width; use an interval variable');
  const source = out;
  out = source.replace(MACRO, (whole: string, name: string, rawArgs: string) => {
    // Grafana < 5.3 compatibility: the first `$__timeGroup(...)` of that text followed by ',' gets AS "time"
    let macro = name;
    if (macro === '__timeGroup' && source[source.indexOf(whole) + whole.length] === ',') macro = '__timeGroupAlias';
    const args = rawArgs.split(',').map((a) => a.trim());
    return evaluateMacro(macro, args, from, to, range);
  });
  return out;
}

function evaluateMacro(name: string, args: string[], from: string, to: string, range: TimeRange): string {
  const needColumn = () => {
    if (!args[0]) throw new GrafanaInterpolationError(`missing time column argument for macro ${name}`);
    return args[0];
  };
  const group = () => {
    if (args.length < 2) throw new GrafanaInterpolationError(`macro ${name} needs time column and interval and optional fill value`);
    if (args.length === 3) throw new GrafanaInterpolationError(`macro ${name}: fill modes are not used by Loupe's dashboards`);
    return goFloat(parseGoInterval(args[1].replace(/^'+|'+$/g, '')));
  };
  switch (name) {
    case '__time':
      return `${needColumn()} AS "time"`;
    case '__timeEpoch':
      return `extract(epoch from ${needColumn()}) as "time"`;
    case '__timeFilter':
      return `${needColumn()} BETWEEN '${from}' AND '${to}'`;
    case '__timeFrom':
      return `'${from}'`;
    case '__timeTo':
      return `'${to}'`;
    case '__timeGroup': {
      const s = group();
      return `floor(extract(epoch from ${args[0]})/${s})*${s}`;
    }
    case '__timeGroupAlias': {
      const s = group();
      return `floor(extract(epoch from ${args[0]})/${s})*${s} AS "time"`;
    }
    case '__unixEpochFilter':
      return `${needColumn()} >= ${Math.floor(range.from.getTime() / 1000)} AND ${args[0]} <= ${Math.floor(range.to.getTime() / 1000)}`;
    default:
      throw new GrafanaInterpolationError(`unknown macro "${name}"`);
  }
}
