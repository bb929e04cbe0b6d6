import { Client } from 'pg';

describe('test Postgres', () => {
  it('answers a query', async () => {
    const client = new Client({ connectionString: process.env.LOUPE_TEST_DATABASE_URL });
    await client.connect();
    const { rows } = await client.query('select 1 + 1 as two');
    await client.end();
    expect(rows[0].two).toBe(2);
  });
});
