// The event types, payload fields, pathology keys and termination reasons written out in the
// dashboards' SQL, checked against the vocabulary Loupe records with: a misspelt name fails here,
// even though its query still runs and an aggregate over it still returns a row.
import { allPanels, dashboardFiles, loadDashboard, variableQuery } from '../support/dashboards';
import { namesIn, sqlNameProblems, unknownName } from '../support/dashboard-names';
import { PATHOLOGY_KEYS } from '../../src/eval/statistics/pathology-keys';

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
    expect([...kinds].sort()).toEqual(['event type', 'pathology', 'pathology prefix', 'payload field']);
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
});
