// The names a dashboard's SQL writes out by hand — event types, their payload fields, pathology keys
// and termination reasons — found by the place they stand in, and checked against the vocabulary
// Loupe records with (src/journal/events, src/eval/statistics/pathology-keys.ts, TERMINATION_REASONS).
// A misspelt name is a query that still runs and still returns rows (an aggregate over nothing is
// a row of zeros), so only this check catches it.
import { describeEvents } from '../../src/journal/event-catalogue';
import { PATHOLOGY_KEYS } from '../../src/eval/statistics/pathology-keys';
import { TERMINATION_REASONS } from '../../src/process/policies/termination';

export type NameKind = 'event type' | 'payload field' | 'pathology' | 'pathology prefix' | 'termination reason';

export interface NameUse {
  kind: NameKind;
  name: string;
}

const literals = (text: string) => [...text.matchAll(/'([^']*)'/g)].map((m) => m[1]);

/** Every vocabulary name the SQL uses, by what it must be. */
export function namesIn(sql: string): NameUse[] {
  const out: NameUse[] = [];
  const add = (kind: NameKind, names: string[]) => out.push(...names.map((name) => ({ kind, name })));
  // e.type = 'x', e.type IN ('x', 'y'), type = 'x'
  for (const m of sql.matchAll(/\btype\s*=\s*'([^']*)'/g)) add('event type', [m[1]]);
  for (const m of sql.matchAll(/\btype\s+IN\s*\(([^)]*)\)/g)) add('event type', literals(m[1]));
  // payload->>'field', payload->'field'
  for (const m of sql.matchAll(/payload\s*->>?\s*'([^']*)'/g)) add('payload field', [m[1]]);
  // pathologies ? 'k', pathologies ?| ARRAY[...], pathologies->>'k'
  for (const m of sql.matchAll(/pathologies\s*\?\s*'([^']*)'/g)) add('pathology', [m[1]]);
  for (const m of sql.matchAll(/pathologies\s*\?\|\s*ARRAY\[([^\]]*)\]/g)) add('pathology', literals(m[1]));
  // the list a panel walks (unnest(ARRAY[...]) AS k(key …)), and keys of jsonb_object_keys(pathologies) k
  for (const m of sql.matchAll(/unnest\(ARRAY\[([^\]]*)\]\)[^\n]*\bAS k\(key/g)) add('pathology', literals(m[1]));
  for (const m of sql.matchAll(/\bk\s+IN\s*\(([^)]*)\)/g)) add('pathology', literals(m[1]));
  for (const m of sql.matchAll(/\bk\s+LIKE\s+'([^']*)'/g)) add('pathology prefix', [m[1]]);
  // termination_reason = 'x' / IN (...)
  for (const m of sql.matchAll(/termination_reason\s*=\s*'([^']*)'/g)) add('termination reason', [m[1]]);
  for (const m of sql.matchAll(/termination_reason\s+IN\s*\(([^)]*)\)/g)) add('termination reason', literals(m[1]));
  return out;
}

const EVENTS = describeEvents();
const EVENT_TYPES = new Set(EVENTS.map((e) => e.type));
// the catalogue marks optional fields `name?`
const fieldsOf = (e: { fields: Record<string, string> }) => Object.keys(e.fields).map((f) => f.replace(/\?$/, ''));
const PAYLOAD_FIELDS = new Set(EVENTS.flatMap(fieldsOf));
const FIELDS_BY_TYPE = new Map(EVENTS.map((e) => [e.type, new Set(fieldsOf(e))]));
const PATHOLOGIES = new Set<string>(PATHOLOGY_KEYS);
const TERMINATIONS = new Set<string>(TERMINATION_REASONS);

/** Why a use is not in the vocabulary, or undefined when it is. */
export function unknownName(use: NameUse): string | undefined {
  const ok = {
    'event type': EVENT_TYPES.has(use.name),
    'payload field': PAYLOAD_FIELDS.has(use.name),
    pathology: PATHOLOGIES.has(use.name),
    // `nudge.%`: some key must start with what precedes the %
    'pathology prefix': /^[^%_]+%$/.test(use.name) && PATHOLOGY_KEYS.some((k) => k.startsWith(use.name.slice(0, -1))),
    'termination reason': TERMINATIONS.has(use.name),
  }[use.kind];
  return ok ? undefined : `${use.kind} "${use.name}" is not in Loupe's vocabulary`;
}

/**
 * Every problem with the names in one query: each must be in the vocabulary, and a payload field
 * read where the query names its event types must be a field of one of them.
 */
export function sqlNameProblems(sql: string): string[] {
  const uses = namesIn(sql);
  const types = uses.filter((u) => u.kind === 'event type' && EVENT_TYPES.has(u.name)).map((u) => u.name);
  return uses.flatMap((use) => {
    const unknown = unknownName(use);
    if (unknown) return [unknown];
    if (use.kind === 'payload field' && types.length && !types.some((t) => FIELDS_BY_TYPE.get(t)!.has(use.name)))
      return [`payload field "${use.name}" is no field of ${types.join(', ')}`];
    return [];
  });
}
