// One journal batch as ONE SQL statement: every table's rows as a data-modifying CTE reading one
// JSON parameter (json_to_recordset) — a single native JSON.stringify per table instead of the
// driver escaping a value (or an array element) at a time. A single statement is atomic on its own
// and costs one round trip instead of a transaction's BEGIN, one statement per table and COMMIT;
// foreign keys are checked at its end, so rows may reference rows of a sibling CTE. Pure: the
// repository supplies the table specs (from the entity metadata) and runs the text.

export interface ColumnSpec {
  /** column name in Postgres */
  name: string;
  /** property of the row object */
  prop: string;
  /** Postgres type, used as the array cast (`uuid`, `int`, `jsonb`, `timestamptz`, …) */
  type: string;
}

export interface TableSpec {
  table: string;
  columns: ColumnSpec[];
  /** the conflict target (primary or unique key columns) */
  keys: string[];
  /** upsert: the last snapshot wins; append: a row already written is left alone (a retried batch) */
  onConflict: 'update' | 'nothing';
}

export interface TableRows {
  spec: TableSpec;
  rows: ReadonlyArray<object>;
}

const statements = new Map<string, string>();

/** The statement text for these tables in this order (cached), and its parameters (one JSON text per table). */
export function batchStatement(parts: readonly TableRows[]): { text: string; values: string[] } | null {
  const present = parts.filter((p) => p.rows.length > 0);
  if (!present.length) return null;
  const key = present.map((p) => p.spec.table).join(',');
  let text = statements.get(key);
  if (!text) statements.set(key, (text = statementText(present.map((p) => p.spec))));
  // rows keep their property names; Dates become ISO text, undefined becomes NULL, json values nest
  const values = present.map(({ rows }) => JSON.stringify(rows));
  return { text, values };
}

const quoted = (prop: string) => `"${prop.replace(/"/g, '""')}"`;

function statementText(specs: readonly TableSpec[]): string {
  const ctes = specs.map((spec, i) => {
    const record = spec.columns.map((c) => `${quoted(c.prop)} ${c.type}`).join(', ');
    const props = spec.columns.map((c) => quoted(c.prop)).join(', ');
    const names = spec.columns.map((c) => c.name).join(', ');
    const update = spec.columns.filter((c) => !spec.keys.includes(c.name)).map((c) => `${c.name} = EXCLUDED.${c.name}`);
    const conflict =
      spec.onConflict === 'update' && update.length
        ? `ON CONFLICT (${spec.keys.join(', ')}) DO UPDATE SET ${update.join(', ')}`
        : `ON CONFLICT (${spec.keys.join(', ')}) DO NOTHING`;
    return `w${i} AS (INSERT INTO ${spec.table} (${names}) SELECT ${props} FROM json_to_recordset($${i + 1}::json) AS r(${record}) ${conflict})`;
  });
  return `WITH ${ctes.join(',\n')}\nSELECT 1`;
}
