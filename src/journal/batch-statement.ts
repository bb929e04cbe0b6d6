// One journal batch as ONE SQL statement: every table's rows as a data-modifying CTE over unnest()
// arrays (one bind parameter per column, not per value). A single statement is atomic on its own
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

/** The statement text for these tables in this order (cached), and its parameters (one array per column). */
export function batchStatement(parts: readonly TableRows[]): { text: string; values: unknown[][] } | null {
  const present = parts.filter((p) => p.rows.length > 0);
  if (!present.length) return null;
  const key = present.map((p) => p.spec.table).join(',');
  let text = statements.get(key);
  if (!text) statements.set(key, (text = statementText(present.map((p) => p.spec))));
  const values: unknown[][] = [];
  for (const { spec, rows } of present) {
    for (const c of spec.columns) values.push(columnValues(rows, c));
  }
  return { text, values };
}

function statementText(specs: readonly TableSpec[]): string {
  let n = 0;
  const ctes = specs.map((spec, i) => {
    const casts = spec.columns.map((c) => `$${++n}::${c.type}[]`).join(', ');
    const names = spec.columns.map((c) => c.name).join(', ');
    const update = spec.columns.filter((c) => !spec.keys.includes(c.name)).map((c) => `${c.name} = EXCLUDED.${c.name}`);
    const conflict =
      spec.onConflict === 'update' && update.length
        ? `ON CONFLICT (${spec.keys.join(', ')}) DO UPDATE SET ${update.join(', ')}`
        : `ON CONFLICT (${spec.keys.join(', ')}) DO NOTHING`;
    return `w${i} AS (INSERT INTO ${spec.table} (${names}) SELECT * FROM unnest(${casts}) ${conflict})`;
  });
  return `WITH ${ctes.join(',\n')}\nSELECT 1`;
}

function columnValues(rows: ReadonlyArray<object>, c: ColumnSpec): unknown[] {
  const out = new Array<unknown>(rows.length);
  const json = c.type === 'jsonb' || c.type === 'json';
  for (let i = 0; i < rows.length; i++) {
    const v = (rows[i] as Record<string, unknown>)[c.prop];
    // as TypeORM stores json: the value's JSON text (a string value becomes a JSON string)
    out[i] = v === undefined || v === null ? null : json ? JSON.stringify(v) : v;
  }
  return out;
}
