// One journal batch as ONE SQL statement: every table's rows as a data-modifying CTE reading one
// JSON parameter — a single native JSON.stringify per table instead of the driver escaping a value
// (or an array element) at a time. A single statement is atomic on its own and costs one round trip
// instead of a transaction's BEGIN, one statement per table and COMMIT; foreign keys are checked at
// its end, so rows may reference rows of a sibling CTE. Rows travel as arrays in column order, read
// with jsonb_array_elements: json_to_recordset builds a hash table of field names for every row and
// parses each jsonb field again (about a fifth of the server's CPU profile on an events batch).
// Pure: the repository supplies the table specs (from the entity metadata) and runs the text.

import { createHash } from 'node:crypto';
import { storableRowsJson } from './storable-text';

export interface ColumnSpec {
  /** column name in Postgres */
  name: string;
  /** property of the row object */
  prop: string;
  /** Postgres type the field is read as (`uuid`, `int`, `jsonb`, `timestamptz`, …); not an array type */
  type: string;
}

export interface TableSpec {
  table: string;
  columns: ColumnSpec[];
  /** the conflict target (primary or unique key columns) */
  keys: string[];
  /**
   * upsert: the last snapshot wins; append: a plain insert, and in the statement for a retried batch
   * (`idempotentText`) a row already written is left alone
   */
  onConflict: 'update' | 'nothing';
}

export interface TableRows {
  spec: TableSpec;
  rows: ReadonlyArray<object>;
  /** fields that can hold model or tool text: made storable, their exact values kept in `originals` */
  storable?: ReadonlyArray<string>;
}

/** A table's rows with the fields to make storable, checked against the row type. */
export const tableRows = <T extends object>(
  spec: TableSpec,
  rows: ReadonlyArray<T>,
  storable: ReadonlyArray<keyof T & string>,
): TableRows => ({
  spec,
  rows,
  storable,
});

export interface BatchStatement {
  /** appends as plain inserts: a key already there fails the statement (Postgres checks no conflict arbiter per row) */
  text: string;
  /** the same with appends skipping rows already written: for a batch an earlier attempt may have committed */
  idempotentText: string;
  /**
   * names of the two texts as prepared statements, one per set of tables: each connection parses and
   * plans a text once instead of on every batch (a third of a five-table batch's server time)
   */
  name: string;
  idempotentName: string;
  /** one JSON text per table: an array of rows, each an array of its column values in column order */
  values: string[];
}

type StatementTexts = Pick<BatchStatement, 'text' | 'idempotentText' | 'name' | 'idempotentName'>;
const statements = new Map<string, StatementTexts>();

/** The statement texts for these tables in this order (cached), and their parameters. */
export function batchStatement(parts: readonly TableRows[]): BatchStatement | null {
  const present = parts.filter((p) => p.rows.length > 0);
  if (!present.length) return null;
  const key = present.map((p) => p.spec.table).join(',');
  let texts = statements.get(key);
  if (!texts) {
    const specs = present.map((p) => p.spec);
    const text = statementText(specs, false);
    const idempotentText = statementText(specs, true);
    // named by their text: a name always means the same statement, whatever the process built before it
    statements.set(key, (texts = { text, idempotentText, name: statementName(text), idempotentName: statementName(idempotentText) }));
  }
  // Dates become ISO text, undefined becomes NULL, json values nest
  const values = present.map(({ spec, rows, storable }) =>
    storableRowsJson(
      rows,
      spec.columns.map((c) => c.prop),
      storable ?? [],
    ),
  );
  return { ...texts, values };
}

const statementName = (text: string) => `journal_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;

/**
 * Column `j` of a row `e` (a jsonb array): jsonb as it is — JSON null as SQL NULL, as a record
 * would read it — text unquoted, anything else through its type's input from that text.
 */
function field(spec: TableSpec, c: ColumnSpec, j: number): string {
  if (/\[\]$|^_/.test(c.type))
    throw new Error(
      `journal batch: ${spec.table}.${c.name} is an array (${c.type}); rows travel as JSON arrays of scalar or jsonb columns`,
    );
  if (c.type === 'jsonb') return `nullif(e->${j}, 'null'::jsonb)`;
  if (c.type === 'text') return `e->>${j}`;
  return `(e->>${j})::${c.type}`;
}

function statementText(specs: readonly TableSpec[], idempotent: boolean): string {
  const ctes = specs.map((spec, i) => {
    const fields = spec.columns.map((c, j) => field(spec, c, j)).join(', ');
    const names = spec.columns.map((c) => c.name).join(', ');
    const update = spec.columns.filter((c) => !spec.keys.includes(c.name)).map((c) => `${c.name} = EXCLUDED.${c.name}`);
    const conflict =
      spec.onConflict === 'update' && update.length
        ? ` ON CONFLICT (${spec.keys.join(', ')}) DO UPDATE SET ${update.join(', ')}`
        : spec.onConflict === 'update' || idempotent
          ? ` ON CONFLICT (${spec.keys.join(', ')}) DO NOTHING`
          : '';
    return `w${i} AS (INSERT INTO ${spec.table} (${names}) SELECT ${fields} FROM jsonb_array_elements($${i + 1}::jsonb) AS e${conflict})`;
  });
  return `WITH ${ctes.join(',\n')}\nSELECT 1`;
}
