import { classifyDatabaseFailure, whileUnavailable } from './database-failure';
import { DatabaseHealth } from './database-health';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('classifyDatabaseFailure', () => {
  it.each([
    ['invalid byte sequence (NUL in text)', pgError('22021'), 'refused'],
    ['unsupported unicode escape in jsonb', pgError('22P05'), 'refused'],
    ['numeric value out of range', pgError('22003'), 'refused'],
    ['foreign key violation', pgError('23503'), 'refused'],
    ['undefined column', pgError('42703'), 'refused'],
    ["program limit exceeded (a batch over jsonb's size limit)", pgError('54000'), 'refused'],
    ['admin shutdown (server stopping)', pgError('57P01'), 'unavailable'],
    ['cannot connect now (server starting)', pgError('57P03'), 'unavailable'],
    ['connection failure', pgError('08006'), 'unavailable'],
    ['connection refused (no SQLSTATE)', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'unavailable'],
    ['a plain error', new Error('Connection terminated unexpectedly'), 'unavailable'],
  ])('%s → %s', (_name, error, want) => {
    expect(classifyDatabaseFailure(error)).toBe(want);
  });
});

describe('whileUnavailable', () => {
  it('repeats a call while the database is unavailable and returns its result', async () => {
    let calls = 0;
    const result = await whileUnavailable(
      async () => {
        if (++calls < 3) throw pgError('57P03');
        return 'ok';
      },
      { deadlineMs: 5_000 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('does not repeat a statement Postgres refused as data', async () => {
    let calls = 0;
    await expect(
      whileUnavailable(
        async () => {
          calls++;
          throw pgError('22021');
        },
        { deadlineMs: 5_000 },
      ),
    ).rejects.toThrow('pg 22021');
    expect(calls).toBe(1);
  });

  it('gives up at once when the database failed for good', async () => {
    const health = new DatabaseHealth();
    health.fail(new Error('the embedded Postgres died and could not be started again'));
    await expect(
      whileUnavailable(
        async () => {
          throw pgError('08006');
        },
        { deadlineMs: 60_000, health },
      ),
    ).rejects.toThrow(/the database is gone: the embedded Postgres died/);
  });
});
