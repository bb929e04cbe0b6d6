import type { DataSource } from 'typeorm';
import { JournalRepository, type PreparedBatch } from './journal.repository';

// What the repository sends to the driver's pool (the statements themselves run against a real
// Postgres in every integration test; here the pool is a stand-in that can refuse prepared statements).
function repositoryOver(refuse: (config: { name?: string }) => { code: string } | undefined) {
  const sent: Array<string | undefined> = [];
  const pool = {
    query: async (config: { name?: string; text: string }) => {
      sent.push(config.name);
      const failure = refuse(config);
      if (failure) throw Object.assign(new Error(`refused ${config.name}`), failure);
      return { rows: [] };
    },
  };
  const repository = new JournalRepository({ driver: { master: pool } } as unknown as DataSource);
  return { repository, sent };
}

const batch: PreparedBatch = {
  statement: { text: 'T', idempotentText: 'I', name: 'journal_t', idempotentName: 'journal_i', values: ['[]'] },
  compactions: [],
};

describe('JournalRepository.write', () => {
  it('sends a batch as its named statement', async () => {
    const { repository, sent } = repositoryOver(() => undefined);
    await repository.write(batch);
    await repository.write(batch);
    expect(sent).toEqual(['journal_t', 'journal_t']);
  });

  it('falls back to plain statements, this batch included, when the connection cannot keep prepared ones (a pooler)', async () => {
    const { repository, sent } = repositoryOver((c) => (c.name ? { code: '26000' } : undefined));
    await repository.write(batch);
    await repository.write(batch);
    expect(sent).toEqual(['journal_t', undefined, undefined]);
    expect(repository.named).toBe(false);
  });

  it('retries a batch whose appends are already there with the idempotent statement, and passes other refusals on', async () => {
    const dup = repositoryOver((c) => (c.name === 'journal_t' ? { code: '23505' } : undefined));
    await dup.repository.write(batch);
    expect(dup.sent).toEqual(['journal_t', 'journal_i']);
    const bad = repositoryOver(() => ({ code: '22P02' }));
    await expect(bad.repository.write(batch)).rejects.toMatchObject({ code: '22P02' });
    expect(bad.sent).toEqual(['journal_t']);
  });
});

describe('JournalRepository.prepare', () => {
  // entity metadata as TypeORM gives it: an array column says so in isArray, not in its type
  const column = (name: string, type: string, isArray = false) => ({
    databaseName: name,
    propertyName: name,
    type,
    isArray,
    isGenerated: false,
  });
  const repositoryWith = (tableName: string, columns: ReturnType<typeof column>[]) =>
    new JournalRepository({
      getMetadata: () => ({ tableName, columns, primaryColumns: [columns[0]] }),
    } as unknown as DataSource);
  const empty = {
    evalRuns: [],
    evalTrials: [],
    evalCells: [],
    evalExchanges: [],
    sessions: [],
    messages: [],
    iterations: [],
    toolCalls: [],
    compactions: [],
  };

  it('builds the statement from the entity columns, and refuses an array column by name before anything is sent', () => {
    const plain = repositoryWith('plain', [column('id', 'uuid'), column('n', 'int')]).prepare({
      ...empty,
      events: [{ id: 'x', n: 1 } as never],
    });
    expect(plain.statement?.text).toContain('SELECT (e->>0)::uuid, (e->>1)::int FROM jsonb_array_elements($1::jsonb) AS e');
    const withArray = repositoryWith('tagged', [column('id', 'uuid'), column('tags', 'text', true)]);
    expect(() => withArray.prepare({ ...empty, events: [{ id: 'x', tags: ['a'] } as never] })).toThrow(
      /tagged\.tags is an array \(text\[\]\)/,
    );
  });
});
