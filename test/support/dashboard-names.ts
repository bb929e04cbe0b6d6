// The names a dashboard's SQL writes out by hand — event types, their payload fields and values,
// pathology keys, termination reasons, trial statuses — found by the place they stand in, and checked
// against the vocabulary Loupe records with (src/journal/events, loop-vocabulary.ts). A misspelt
// name is a query that still runs and still returns rows (an aggregate over nothing is a row of
// zeros), so only this check catches it; a list that leaves out part of a pathology group is a rate
// that silently undercounts, so lists are checked whole too. Every quoted word of a query must stand
// in a place read here (or be one of NOT_NAMES): a name in a place this file does not know fails.
import { describeEvents } from '../../src/journal/event-catalogue';
import { PATHOLOGY_GROUPS, PATHOLOGY_KEYS, REPAIR_EVENTS, TERMINATION_REASONS } from '../../src/journal/events/loop-vocabulary';
import { SESSION_VERDICTS } from '../../src/journal/session-query.repository';

export type NameKind =
  | 'event type'
  | 'payload field'
  | 'payload value'
  | 'pathology'
  | 'pathology prefix'
  | 'termination reason'
  | 'trial status'
  /** a key of a run's stored config or statistics (eval_runs.config, .statistics): no loop vocabulary */
  | 'statistics field';

export interface NameUse {
  kind: NameKind;
  name: string;
  /** where the literal starts in the SQL */
  at: number;
  /** uses written as one list (`IN (…)`, `ARRAY[…]`, one EXISTS over the keys) share it */
  list?: number;
  /** a payload value: the field it is compared with */
  field?: string;
}

/** quoted words that are no name of Loupe's, and why */
export const NOT_NAMES: Record<string, string> = {
  all: "Grafana's value for All of a variable",
  UTC: 'a time zone',
  model: "a row's label in the stored-statistics panel ('model' AS grouping)",
  configuration: "a row's label in the stored-statistics panel",
};

const literalsAt = (text: string, offset: number) => [...text.matchAll(/'([^']*)'/g)].map((m) => ({ name: m[1], at: offset + m.index }));

/** Every vocabulary name the SQL uses, by what it must be. */
export function namesIn(sql: string): NameUse[] {
  const byOffset = new Map<number, NameUse>();
  let lists = 0;
  // the first place that reads a literal decides what it is
  const add = (kind: NameKind, found: Array<{ name: string; at: number }>, extra: Partial<NameUse> = {}) => {
    for (const f of found) if (!byOffset.has(f.at)) byOffset.set(f.at, { kind, ...f, ...extra });
  };
  const each = (re: RegExp, fn: (group: string, at: number, m: RegExpMatchArray) => void) => {
    for (const m of sql.matchAll(re)) fn(m[1], m.indices![1][0], m);
  };
  const asList = (kind: NameKind, group: string, at: number) => add(kind, literalsAt(group, at), { list: ++lists });
  // one EXISTS over jsonb_object_keys(pathologies) k is one list: its k LIKE and k IN together
  each(/jsonb_object_keys\(pathologies\)\s+k\s+WHERE\s+((?:[^()]|\([^()]*\))*)\)/dg, (clause, at) => {
    const list = ++lists;
    for (const m of clause.matchAll(/\bk\s+LIKE\s+('[^']*')/dg)) add('pathology prefix', literalsAt(m[1], at + m.indices![1][0]), { list });
    for (const m of clause.matchAll(/\bk\s+IN\s*\(([^)]*)\)/dg)) add('pathology', literalsAt(m[1], at + m.indices![1][0]), { list });
  });
  // e.type = 'x', e.type IN ('x', 'y')
  each(/\btype\s*=\s*('[^']*')/dg, (g, at) => add('event type', literalsAt(g, at)));
  each(/\btype\s+IN\s*\(([^)]*)\)/dg, (g, at) => asList('event type', g, at));
  // payload->>'field' = 'value', then payload->>'field', payload->'field'
  each(/payload\s*->>\s*'([^']*)'\s*=\s*('[^']*')/dg, (_f, _at, m) =>
    add('payload value', literalsAt(m[2], m.indices![2][0]), { field: m[1] }),
  );
  each(/payload\s*->>?\s*('[^']*')/dg, (g, at) => add('payload field', literalsAt(g, at)));
  // pathologies ? 'k', pathologies->'k', pathologies ?| ARRAY[...], and the list a panel walks (unnest(ARRAY[...]) AS k(key …))
  each(/pathologies\s*(?:\?|->>?)\s*('[^']*')/dg, (g, at) => add('pathology', literalsAt(g, at)));
  each(/pathologies\s*\?\|\s*ARRAY\[([^\]]*)\]/dg, (g, at) => asList('pathology', g, at));
  each(/unnest\(ARRAY\[([^\]]*)\]\)[^\n]*\bAS k\(key/dg, (g, at) => asList('pathology', g, at));
  each(/\bk\s+IN\s*\(([^)]*)\)/dg, (g, at) => asList('pathology', g, at));
  each(/\bk\s+LIKE\s+('[^']*')/dg, (g, at) => add('pathology prefix', literalsAt(g, at)));
  // termination_reason = 'x' / IN (...); a trial's status = 'x'
  each(/termination_reason\s*=\s*('[^']*')/dg, (g, at) => add('termination reason', literalsAt(g, at)));
  each(/termination_reason\s+IN\s*\(([^)]*)\)/dg, (g, at) => asList('termination reason', g, at));
  each(/\bstatus\s*=\s*('[^']*')/dg, (g, at) => add('trial status', literalsAt(g, at)));
  // a run's stored config and statistics: r.config->>'mode', r.statistics->'run'->'passRate'->>'rate', g.s->'summary'
  each(/\b(?:config|statistics|s)((?:\s*->>?\s*'[^']*')+)/dg, (g, at) => add('statistics field', literalsAt(g, at)));
  return [...byOffset.values()].sort((a, b) => a.at - b.at);
}

/** Quoted words that look like names but stand where namesIn reads none (nor are NOT_NAMES). */
export function unreadWords(sql: string): string[] {
  const read = new Set(namesIn(sql).map((u) => u.at));
  return literalsAt(sql, 0)
    .filter((l) => /^[A-Za-z_][\w.]*$/.test(l.name) && !read.has(l.at) && !(l.name in NOT_NAMES))
    .map((l) => `"${l.name}" stands where no name is read (a place dashboard-names.ts does not know, or a word for NOT_NAMES)`);
}

const EVENTS = describeEvents();
const EVENT_TYPES = new Set(EVENTS.map((e) => e.type));
// the catalogue marks optional fields `name?`
const fieldsOf = (e: { fields: Record<string, string> }) => Object.keys(e.fields).map((f) => f.replace(/\?$/, ''));
const PAYLOAD_FIELDS = new Set(EVENTS.flatMap(fieldsOf));
const FIELDS_BY_TYPE = new Map(EVENTS.map((e) => [e.type, new Set(fieldsOf(e))]));
/** type → field → its closed values ('a' | 'b'), where it has them */
const VALUES = new Map(
  EVENTS.map((e) => [
    e.type,
    new Map(Object.entries(e.fields).map(([f, t]) => [f.replace(/\?$/, ''), [...t.matchAll(/'([^']*)'/g)].map((m) => m[1])])),
  ]),
);
const PATHOLOGIES = new Set<string>(PATHOLOGY_KEYS);
const TERMINATIONS = new Set<string>(TERMINATION_REASONS);
const TRIAL_STATUSES = new Set<string>(SESSION_VERDICTS.filter((v) => v !== 'none'));

/** Why a use is not in the vocabulary, or undefined when it is. */
export function unknownName(use: NameUse): string | undefined {
  const ok = {
    'event type': EVENT_TYPES.has(use.name),
    'payload field': PAYLOAD_FIELDS.has(use.name),
    'payload value': true, // checked against the query's event types in sqlNameProblems
    pathology: PATHOLOGIES.has(use.name),
    // `nudge.%`: some key must start with what precedes the %
    'pathology prefix': /^[^%_]+%$/.test(use.name) && PATHOLOGY_KEYS.some((k) => k.startsWith(use.name.slice(0, -1))),
    'termination reason': TERMINATIONS.has(use.name),
    'trial status': TRIAL_STATUSES.has(use.name),
    'statistics field': true, // no loop vocabulary: the stored statistics' shape
  }[use.kind];
  return ok ? undefined : `${use.kind} "${use.name}" is not in Loupe's vocabulary`;
}

/** The pathology keys a use stands for: a prefix its keys, an event type the keys its events count as. */
export function pathologiesOf(use: NameUse): string[] {
  if (use.kind === 'pathology') return [use.name];
  if (use.kind === 'pathology prefix') return PATHOLOGY_KEYS.filter((k) => k.startsWith(use.name.slice(0, -1)));
  if (use.kind !== 'event type') return [];
  if ((REPAIR_EVENTS as readonly string[]).includes(use.name)) return [`repair.${use.name}`];
  if (use.name === 'nudge') return PATHOLOGY_KEYS.filter((k) => k.startsWith('nudge.'));
  return PATHOLOGIES.has(use.name) ? [use.name] : [];
}

/** the keys of each group that event types alone can name (not nudges_exhausted: a nudge's payload says it) */
const byEvents = (keys: readonly string[]) =>
  keys.filter((k) => [...EVENT_TYPES].some((type) => pathologiesOf({ kind: 'event type', name: type, at: 0 }).includes(k)));

/** Groups a set of pathology keys holds only part of: `group: has a, b; lacks c`. */
export function partialGroups(keys: Set<string>, fromEvents = false): string[] {
  return Object.entries(PATHOLOGY_GROUPS).flatMap(([group, all]) => {
    const members = fromEvents ? byEvents(all) : [...all];
    const has = members.filter((k) => keys.has(k));
    const lacks = members.filter((k) => !keys.has(k));
    return has.length && lacks.length ? [`${group}: has ${has.join(', ')}; lacks ${lacks.join(', ')}`] : [];
  });
}

/** A list of pathologies (or of their events) names whole groups (loop-vocabulary.ts PATHOLOGY_GROUPS), and so does the query. */
function groupProblems(uses: NameUse[]): string[] {
  const problems: string[] = [];
  for (const fromEvents of [false, true]) {
    const mine = uses.filter((u) => (u.kind === 'event type') === fromEvents && pathologiesOf(u).length);
    const where = fromEvents ? 'the events of ' : '';
    const inLists = new Set<string>();
    for (const list of new Set(mine.filter((u) => u.list).map((u) => u.list))) {
      const names = mine.filter((u) => u.list === list);
      // an event-type list of other events (slot_acquired, …) is no pathology list
      if (fromEvents && uses.some((u) => u.list === list && !pathologiesOf(u).length)) continue;
      const partial = partialGroups(new Set(names.flatMap(pathologiesOf)), fromEvents);
      partial.forEach((p) => inLists.add(p));
      problems.push(...partial.map((p) => `the list ${names.map((u) => u.name).join(', ')} names part of ${where}a group (${p})`));
    }
    // singles (one column per key) must add up to whole groups too; a list's own gap is said once
    const partial = partialGroups(new Set(mine.flatMap(pathologiesOf)), fromEvents).filter((p) => !inLists.has(p));
    problems.push(...partial.map((p) => `the query names part of ${where}a group (${p})`));
  }
  return problems;
}

/**
 * Every problem with the names in one query: each must be in the vocabulary; a payload field read
 * where the query names its event types must be a field of one of them, and a value compared with a
 * closed field one of its values; pathology lists name whole groups; the list a panel walks is
 * every pathology key, in report order; and no quoted word stands where none is read.
 */
export function sqlNameProblems(sql: string): string[] {
  const uses = namesIn(sql);
  const types = [...new Set(uses.filter((u) => u.kind === 'event type' && EVENT_TYPES.has(u.name)).map((u) => u.name))];
  const walked = /unnest\(ARRAY\[([^\]]*)\]\)[^\n]*\bAS k\(key/.exec(sql);
  return [
    ...uses.flatMap((use) => {
      const unknown = unknownName(use);
      if (unknown) return [unknown];
      if (use.kind === 'payload field' && types.length && !types.some((t) => FIELDS_BY_TYPE.get(t)!.has(use.name)))
        return [`payload field "${use.name}" is no field of ${types.join(', ')}`];
      if (use.kind === 'payload value' && types.length) {
        const closed = types.map((t) => VALUES.get(t)!.get(use.field!) ?? []).filter((v) => v.length);
        if (closed.length && !closed.some((v) => v.includes(use.name)))
          return [`payload value "${use.name}" is no value of ${use.field} (${[...new Set(closed.flat())].join(', ')})`];
      }
      return [];
    }),
    ...groupProblems(uses),
    ...(walked &&
    literalsAt(walked[1], 0)
      .map((l) => l.name)
      .join() !== PATHOLOGY_KEYS.join()
      ? ['the list a panel walks is not every pathology key in report order (PATHOLOGY_KEYS)']
      : []),
    ...unreadWords(sql),
  ];
}
