// The journal's batch statement against a real Postgres: every column type the tables use makes the
// round trip exactly (rows travel as JSON arrays read with jsonb_array_elements and cast per column).
import { Client } from 'pg';
import { batchStatement, type TableSpec } from '../../src/journal/batch-statement';
import { createTestDatabase } from '../support/test-app';

const spec: TableSpec = {
  table: 'typed_rows',
  columns: [
    { name: 'id', prop: 'id', type: 'uuid' },
    { name: 'n', prop: 'n', type: 'int' },
    { name: 'x', prop: 'x', type: 'double precision' },
    { name: 'flag', prop: 'flag', type: 'boolean' },
    { name: 'body', prop: 'body', type: 'text' },
    { name: 'at', prop: 'at', type: 'timestamptz' },
    { name: 'doc', prop: 'doc', type: 'jsonb' },
    { name: 'maybe', prop: 'maybe', type: 'jsonb' },
  ],
  keys: ['id'],
  onConflict: 'update',
};

describe('journal batch statement: column types through Postgres', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ connectionString: await createTestDatabase() });
    await client.connect();
    await client.query(`CREATE TABLE typed_rows (
      id uuid PRIMARY KEY, n int, x double precision, flag boolean, body text, at timestamptz, doc jsonb NOT NULL, maybe jsonb)`);
  });
  afterAll(() => client.end());

  const write = (rows: object[]) => {
    const st = batchStatement([{ spec, rows }])!;
    return client.query(st.text, st.values);
  };
  const read = async (id: string) =>
    (await client.query('SELECT * FROM typed_rows WHERE id = $1', [id])).rows[0] as Record<string, unknown>;

  it('keeps numbers, booleans, text, times and JSON exactly; a JSON null in a jsonb column is SQL NULL', async () => {
    const at = new Date('2026-11-27T04:05:06.789Z');
    const body = 'quotes " and \\ backslashes, a tab\t, a line\nbreak, é, 😀, and {braces} [brackets] like JSON';
    const doc = { nested: { list: [1, 'two', null, false], empty: {} }, key: 'v', nothing: null, big: 1e300, tiny: 1e-7 };
    await write([
      { id: '00000000-0000-4000-8000-000000000001', n: -2147483648, x: 0.1 + 0.2, flag: true, body, at, doc, maybe: null },
      { id: '00000000-0000-4000-8000-000000000002', n: 7, x: -1e-300, flag: false, body: '', at, doc: 'a bare string', maybe: [null] },
      // undefined fields (absent properties) are NULL, as they were with a record per row
      { id: '00000000-0000-4000-8000-000000000003', doc: 0 },
    ]);
    const one = await read('00000000-0000-4000-8000-000000000001');
    expect(one).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      n: -2147483648,
      x: 0.30000000000000004,
      flag: true,
      body,
      at,
      doc,
      maybe: null,
    });
    // SQL NULL, not the JSON literal null (which the driver would also read as null)
    const { rows } = await client.query(
      "SELECT id FROM typed_rows WHERE maybe IS NULL AND id <> '00000000-0000-4000-8000-000000000002' ORDER BY id",
    );
    expect(rows.map((r: { id: string }) => r.id.slice(-1))).toEqual(['1', '3']);
    const two = await read('00000000-0000-4000-8000-000000000002');
    expect(two).toEqual({
      id: '00000000-0000-4000-8000-000000000002',
      n: 7,
      x: -1e-300,
      flag: false,
      body: '',
      at,
      doc: 'a bare string',
      maybe: [null],
    });
    expect(await read('00000000-0000-4000-8000-000000000003')).toEqual({
      id: '00000000-0000-4000-8000-000000000003',
      n: null,
      x: null,
      flag: null,
      body: null,
      at: null,
      doc: 0,
      maybe: null,
    });
  });

  it('upserts the last snapshot, and Postgres refuses what the columns refuse (naming it)', async () => {
    const id = '00000000-0000-4000-8000-000000000004';
    await write([{ id, n: 1, doc: { v: 1 } }]);
    await write([{ id, n: 2, doc: { v: 2 }, maybe: { set: true } }]);
    expect(await read(id)).toEqual(expect.objectContaining({ n: 2, doc: { v: 2 }, maybe: { set: true } }));
    // a NOT NULL jsonb column given null is refused, not stored as the JSON literal null
    await expect(write([{ id: '00000000-0000-4000-8000-000000000005', doc: null }])).rejects.toMatchObject({
      code: '23502',
      column: 'doc',
    });
    await expect(write([{ id: '00000000-0000-4000-8000-000000000006', n: 1.5, doc: {} }])).rejects.toMatchObject({ code: '22P02' });
    await expect(write([{ id: '00000000-0000-4000-8000-000000000007', body: 'NUL \u0000 in text', doc: {} }])).rejects.toMatchObject({
      code: '22P05',
    });
  });
});
