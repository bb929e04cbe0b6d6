import { batchStatement, type TableSpec } from './batch-statement';

const sessions: TableSpec = {
  table: 'sessions',
  columns: [
    { name: 'id', prop: 'id', type: 'uuid' },
    { name: 'config', prop: 'config', type: 'jsonb' },
    { name: 'started_at', prop: 'startedAt', type: 'timestamptz' },
  ],
  keys: ['id'],
  onConflict: 'update',
};
const events: TableSpec = {
  table: 'events',
  columns: [
    { name: 'session_id', prop: 'sessionId', type: 'uuid' },
    { name: 'seq', prop: 'seq', type: 'int' },
    { name: 'payload', prop: 'payload', type: 'jsonb' },
  ],
  keys: ['session_id', 'seq'],
  onConflict: 'nothing',
};

describe('batchStatement', () => {
  it('writes every table as one CTE reading one JSON parameter of rows in column order, upserts updating all but the key, appends as plain inserts', () => {
    const at = new Date('2026-11-23T00:00:00Z');
    const st = batchStatement([
      { spec: sessions, rows: [{ id: 'a', config: { x: 1 }, startedAt: at }] },
      {
        spec: events,
        rows: [
          { sessionId: 'a', seq: 0, payload: { k: 'v' } },
          { sessionId: 'a', seq: 1, payload: 'text', notAColumn: true },
        ],
      },
    ])!;
    expect(st.text).toBe(
      [
        "WITH w0 AS (INSERT INTO sessions (id, config, started_at) SELECT (e->>0)::uuid, nullif(e->1, 'null'::jsonb), (e->>2)::timestamptz FROM jsonb_array_elements($1::jsonb) AS e ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, started_at = EXCLUDED.started_at),",
        "w1 AS (INSERT INTO events (session_id, seq, payload) SELECT (e->>0)::uuid, (e->>1)::int, nullif(e->2, 'null'::jsonb) FROM jsonb_array_elements($2::jsonb) AS e)",
        'SELECT 1',
      ].join('\n'),
    );
    // for a retried batch: the same, appends leaving a row already written alone
    expect(st.idempotentText).toBe(
      st.text.replace(
        'jsonb_array_elements($2::jsonb) AS e)',
        'jsonb_array_elements($2::jsonb) AS e ON CONFLICT (session_id, seq) DO NOTHING)',
      ),
    );
    expect(st.idempotentText).not.toBe(st.text);
    expect(st.values.map((v) => JSON.parse(v))).toEqual([
      [['a', { x: 1 }, '2026-11-23T00:00:00.000Z']],
      [
        ['a', 0, { k: 'v' }],
        ['a', 1, 'text'],
      ],
    ]);
  });

  it('reads text columns unquoted and refuses an array column (its JSON array is no Postgres array literal)', () => {
    const notes: TableSpec = {
      table: 'notes',
      columns: [{ name: 'body', prop: 'body', type: 'text' }],
      keys: ['body'],
      onConflict: 'nothing',
    };
    expect(batchStatement([{ spec: notes, rows: [{ body: 'x' }] }])!.text).toContain(
      'SELECT e->>0 FROM jsonb_array_elements($1::jsonb) AS e',
    );
    const tags: TableSpec = { ...notes, table: 'tagged', columns: [{ name: 'tags', prop: 'tags', type: 'text[]' }] };
    expect(() => batchStatement([{ spec: tags, rows: [{ tags: ['a'] }] }])).toThrow(/tagged\.tags is an array \(text\[\]\)/);
  });

  it('leaves out tables without rows, and returns null for an empty batch', () => {
    const st = batchStatement([
      { spec: sessions, rows: [] },
      { spec: events, rows: [{ sessionId: null, seq: 3, payload: null }] },
    ])!;
    expect(st.text).toMatch(/^WITH w0 AS \(INSERT INTO events .* jsonb_array_elements\(\$1::jsonb\)/);
    expect(st.values).toEqual(['[[null,3,null]]']);
    expect(batchStatement([{ spec: sessions, rows: [] }])).toBeNull();
  });

  it('names each text as a prepared statement: the same name for the same tables, another for other tables or the retry text', () => {
    const one = (rows: number) =>
      batchStatement([{ spec: events, rows: Array.from({ length: rows }, (_, seq) => ({ sessionId: 'a', seq, payload: null })) }])!;
    const both = batchStatement([
      { spec: sessions, rows: [{ id: 'a', config: null, startedAt: new Date() }] },
      { spec: events, rows: [{ sessionId: 'a', seq: 0, payload: null }] },
    ])!;
    // the name follows the text, not the rows: one plan per connection serves every batch of these tables
    expect(one(1).name).toBe(one(3).name);
    expect(one(1).name).toMatch(/^journal_[0-9a-f]{24}$/);
    expect(new Set([one(1).name, one(1).idempotentName, both.name, both.idempotentName]).size).toBe(4);
  });
});
