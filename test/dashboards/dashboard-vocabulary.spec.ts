// The event types, payload fields and values, pathology keys, termination reasons and trial statuses
// written out in the dashboards' SQL, checked against the vocabulary Loupe records with: a misspelt
// name fails here, even though its query still runs and an aggregate over it still returns a row; a
// list of pathologies that leaves out part of a group (loop-vocabulary.ts PATHOLOGY_GROUPS) fails
// too, and so does a quoted word standing where the check reads no name.
import { allPanels, dashboardFiles, loadDashboard, variableQuery } from '../support/dashboards';
import { namesIn, sqlNameProblems, unknownName } from '../support/dashboard-names';
import { PATHOLOGY_KEYS } from '../../src/journal/events/loop-vocabulary';

const dashboards = dashboardFiles().map(loadDashboard);

describe('dashboard SQL names against the event vocabulary', () => {
  it.each(dashboards.map((d) => [d.title, d] as const))('%s', (_title, d) => {
    const texts = [
      ...allPanels(d).flatMap((p) => (p.targets ?? []).filter((t) => t.rawSql).map((t) => [p.title, t.rawSql!] as const)),
      ...d.templating.list.map((v) => [`variable ${v.name}`, variableQuery(v)] as const),
    ];
    const problems = texts.flatMap(([where, sql]) => sqlNameProblems(sql).map((problem) => `${where}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('finds the names the dashboards use (the check has something to check)', () => {
    const uses = dashboards.flatMap((d) => allPanels(d).flatMap((p) => (p.targets ?? []).flatMap((t) => namesIn(t.rawSql ?? ''))));
    const kinds = new Set(uses.map((u) => u.kind));
    expect([...kinds].sort()).toEqual([
      'event type',
      'pathology',
      'pathology prefix',
      'payload field',
      'payload value',
      'statistics field',
      'trial status',
    ]);
    // the panel that lists every pathology lists exactly the keys the eval reports, in their order
    const every = dashboards
      .flatMap((d) => allPanels(d))
      .find((p) => p.title === 'Every pathology with its 95% interval')!
      .targets![0].rawSql!;
    expect(namesIn(every).filter((u) => u.kind === 'pathology').map((u) => u.name)).toEqual([...PATHOLOGY_KEYS]);
  });

  it.each([
    ["WHERE e.type = 'repeat_brake'", 'event type "repeat_brake"'],
    ["WHERE e.type IN ('nudge', 'mid_chain_nudges')", 'event type "mid_chain_nudges"'],
    ["max((e.payload->>'waitMS')::float)", 'payload field "waitMS"'],
    ["avg((pathologies ? 'nudge.promisedActions')::int)", 'pathology "nudge.promisedActions"'],
    ["pathologies ?| ARRAY['repeat_break', 'cycle_brake']", 'pathology "cycle_brake"'],
    ["k LIKE 'nudges.%'", 'pathology prefix "nudges.%"'],
    ["WHERE termination_reason = 'max_iteration'", 'termination reason "max_iteration"'],
  ])('fails a misspelt name: %s', (sql, problem) => {
    expect(namesIn(sql).map(unknownName).filter(Boolean)).toEqual([`${problem} is not in Loupe's vocabulary`]);
  });

  it("fails a payload field of another event than the query's", () => {
    expect(sqlNameProblems("SELECT e.payload->>'waitMs' FROM events e WHERE e.type = 'slot_acquired'")).toEqual([]);
    expect(sqlNameProblems("SELECT e.payload->>'queueLength' FROM events e WHERE e.type = 'slot_acquired'")).toEqual([
      'payload field "queueLength" is no field of slot_acquired',
    ]);
  });

  it.each([
    ["WHERE termination_reason IN ('completed', 'nudges_exhaustd')", 'termination reason "nudges_exhaustd"'],
    ["count(*) FILTER (WHERE status = 'unjuged')", 'trial status "unjuged"'],
    ["avg((pathologies->>'context_overflw')::int)", 'pathology "context_overflw"'],
  ])('fails a misspelt name in a list or comparison: %s', (sql, problem) => {
    expect(sqlNameProblems(sql)).toEqual([`${problem} is not in Loupe's vocabulary`]);
  });

  it('fails a value no closed payload field has', () => {
    const sql = (v: string) => `SELECT count(*) FROM events e WHERE e.type = 'approval_decided' AND e.payload->>'decision' = '${v}'`;
    expect(sqlNameProblems(sql('deny'))).toEqual([]);
    expect(sqlNameProblems(sql('denied'))).toEqual(['payload value "denied" is no value of decision (allow, deny)']);
  });

  it('fails a list that leaves out part of a pathology group, and a query whose columns do', () => {
    const breaks = "'repeat_break', 'same_tool_break', 'cycle_break', 'error_repeat_break'";
    expect(sqlNameProblems(`avg((pathologies ?| ARRAY[${breaks}, 'content_loop_break'])::int)`)).toEqual([]);
    expect(sqlNameProblems(`avg((pathologies ?| ARRAY[${breaks}])::int)`)).toEqual([
      'the list repeat_break, same_tool_break, cycle_break, error_repeat_break names part of a group ' +
        '(loop_break: has repeat_break, same_tool_break, cycle_break, error_repeat_break; lacks content_loop_break)',
    ]);
    // the nudges with a prefix: nudge.% alone lacks the exhausted nudges and the doom-loop asks
    const nudges = "EXISTS (SELECT 1 FROM jsonb_object_keys(pathologies) k WHERE k LIKE 'nudge.%' OR k IN ('nudges_exhausted'))";
    expect(sqlNameProblems(nudges)).toEqual([expect.stringMatching(/^the list nudge\.%, nudges_exhausted names part of a group \(nudge: .*; lacks doom_loop_asked\)$/)]);
    // one column per kind: together they must be the whole group
    const columns = ['repair.tool_name_repaired', 'repair.tool_args_normalized', 'repair.tool_args_coerced'].map((k) => `avg((pathologies ? '${k}')::int)`);
    expect(sqlNameProblems(columns.join(', '))).toEqual([expect.stringMatching(/^the query names part of a group \(extraction_repair: .*; lacks repair\.tool_call_repaired, repair\.tool_call_dropped\)$/)]);
    // event types stand for the pathologies their events count as
    expect(sqlNameProblems("bool_or(e.type IN ('nudge', 'mid_chain_nudge')) AS nudge, bool_or(e.type = 'hallucination_stripped')")).toEqual([
      'the list nudge, mid_chain_nudge names part of the events of a group (hallucinated_output: has mid_chain_nudge; lacks hallucination_stripped)',
    ]);
    // a list of other events is no pathology list
    expect(sqlNameProblems("WHERE e.type IN ('slot_acquired', 'max_iterations')")).toEqual([]);
  });

  it('fails a walked list that is not every pathology key in order', () => {
    const walk = (keys: readonly string[]) => `FROM unnest(ARRAY[${keys.map((k) => `'${k}'`).join(', ')}]) WITH ORDINALITY AS k(key, ord)`;
    expect(sqlNameProblems(walk(PATHOLOGY_KEYS))).toEqual([]);
    expect(sqlNameProblems(walk(PATHOLOGY_KEYS.filter((k) => k !== 'model_reloaded')))).toContain(
      'the list a panel walks is not every pathology key in report order (PATHOLOGY_KEYS)',
    );
    expect(sqlNameProblems(walk([...PATHOLOGY_KEYS].reverse()))).toContain(
      'the list a panel walks is not every pathology key in report order (PATHOLOGY_KEYS)',
    );
  });

  it('fails a name standing where the check reads none', () => {
    expect(sqlNameProblems("SELECT count(*) FILTER (WHERE reason = 'repeat_brake') FROM t WHERE $run = 'all'")).toEqual([
      '"repeat_brake" stands where no name is read (a place dashboard-names.ts does not know, or a word for NOT_NAMES)',
    ]);
    // words that are no names: formats, separators, Grafana's All
    expect(sqlNameProblems("to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' · ' WHERE $run = 'all'")).toEqual([]);
  });
});
