// The Grafana SQL expansion the dashboard tests rely on, checked against the expansions Grafana's own
// tests expect (pkg/tsdb/grafana-postgresql-datasource/macros_test.go, grafana-sql's SqlDatasource
// interpolation), so the queries the dashboard tests run are the queries Grafana would run.
import { expandMacros, goFloat, interpolateVariables, parseGoInterval, rfc3339Nano, type VariableValue } from '../support/grafana-sql';

const from = new Date(Date.UTC(2018, 3, 12, 18, 0, 0));
const range = { from, to: new Date(from.getTime() + 5 * 60_000) };

describe('Grafana Postgres macros (as macros.go expands them)', () => {
  it.each([
    ['select $__time(time_column)', 'select time_column AS "time"'],
    ['WHERE $__timeFilter(time_column)', "WHERE time_column BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T18:05:00Z'"],
    ['select $__timeFrom()', "select '2018-04-12T18:00:00Z'"],
    ['select $__timeTo()', "select '2018-04-12T18:05:00Z'"],
    ["SELECT $__timeGroup(time_column,'5m'), value", 'SELECT floor(extract(epoch from time_column)/300)*300 AS "time", value'],
    ["SELECT $__timeGroup(time_column,'5m') as time, value", 'SELECT floor(extract(epoch from time_column)/300)*300 as time, value'],
    ["SELECT $__timeGroupAlias(time_column,'5m')", 'SELECT floor(extract(epoch from time_column)/300)*300 AS "time"'],
    ["$__timeGroup(time_column , '5m')", 'floor(extract(epoch from time_column)/300)*300'],
    ['select $__unixEpochFilter(time)', `select time >= ${from.getTime() / 1000} AND time <= ${from.getTime() / 1000 + 300}`],
    ['$__timeGroupAlias(t, 12d)', 'floor(extract(epoch from t)/1.0368e+06)*1.0368e+06 AS "time"'],
    ['$__timeGroupAlias(t, 20ms)', 'floor(extract(epoch from t)/0.02)*0.02 AS "time"'],
  ])('%s', (sql, expected) => {
    expect(expandMacros(sql, range)).toBe(expected);
  });

  it('refuses unknown macros and $__interval, as a panel must not depend on its width', () => {
    expect(() => expandMacros('select $__nosuch(x)', range)).toThrow('unknown macro "__nosuch"');
    expect(() => expandMacros('select $__timeGroup(x)', range)).toThrow(/needs time column and interval/);
    expect(() => expandMacros('select $__interval', range)).toThrow(/interval variable/);
  });

  it('formats times and numbers as Go does', () => {
    expect(rfc3339Nano(new Date(Date.UTC(1960, 1, 1, 7, 0, 0, 500)))).toBe('1960-02-01T07:00:00.5Z');
    expect(rfc3339Nano(new Date(Date.UTC(2026, 10, 23, 8, 14, 6, 280)))).toBe('2026-11-23T08:14:06.28Z');
    expect([goFloat(300), goFloat(86400), goFloat(1e6), goFloat(0.00001)]).toEqual(['300', '86400', '1e+06', '1e-05']);
    expect([parseGoInterval('1h30m'), parseGoInterval('1d'), parseGoInterval('250ms')]).toEqual([5400, 86400, 0.25]);
  });
});

describe('template variables (as the SQL data source interpolates them)', () => {
  const vars: Record<string, VariableValue> = {
    model: { multi: true, includeAll: true, current: '$__all', options: ['llama3.1:8b', "o'brien"] },
    profile: { multi: true, includeAll: true, current: ['corvid'], options: ['corvid', 'loupe'] },
    session: { multi: false, includeAll: false, current: "it's", options: ["it's"] },
    bucket: { multi: false, includeAll: false, current: '1h', options: ['1h'] },
    custom: { multi: true, includeAll: true, allValue: '.*', current: ['$__all'], options: ['a'] },
  };

  it('quotes multi-value and All selections, inserts single values unquoted with quotes doubled', () => {
    expect(interpolateVariables('model IN ($model) AND profile IN (${profile}) AND id = \'$session\'', vars)).toBe(
      "model IN ('llama3.1:8b','o''brien') AND profile IN ('corvid') AND id = 'it''s'",
    );
    expect(interpolateVariables('$__timeGroupAlias(t, $bucket)', vars)).toBe('$__timeGroupAlias(t, 1h)');
  });

  it('inserts a custom all value as it is, applies explicit formats, and leaves unknown names alone', () => {
    expect(interpolateVariables('x ~ $custom', vars)).toBe('x ~ .*');
    expect(interpolateVariables('${model:csv} ${profile:sqlstring} [[bucket]]', vars)).toBe("llama3.1:8b,o'brien 'corvid' 1h");
    expect(interpolateVariables('$__timeFilter(t) $nosuch', vars)).toBe('$__timeFilter(t) $nosuch');
  });
});
