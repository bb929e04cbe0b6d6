import { EvalRunEntity, EventEntity, IterationEntity, SessionEntity } from '../../../database/entities';
import { apiColumns, apiRow, runDetailResponse } from './api-rows';
import { entitySchema } from './entity-schemas';

describe('API rows', () => {
  it('list exactly the columns the document declares, for every row it returns', () => {
    for (const entity of [SessionEntity, IterationEntity, EventEntity, EvalRunEntity]) {
      expect(apiColumns(entity)).toEqual(Object.keys(entitySchema(entity).properties ?? {}));
    }
  });

  it('copy the columns of a row into plain data, leaving bookkeeping and fields of its own behind', () => {
    const entity = Object.assign(new EventEntity(), {
      sessionId: 's',
      seq: 3,
      type: 'nudge',
      payload: { reason: 'loopDetected' },
      originals: '{"payload":{}}',
      cached: 'not a column',
    });
    const row = apiRow(EventEntity, entity);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row).toMatchObject({ sessionId: 's', seq: 3, type: 'nudge', payload: { reason: 'loopDetected' } });
    expect(row).not.toHaveProperty('originals');
    expect(row).not.toHaveProperty('cached');
    expect(Object.keys(row).every((k) => apiColumns(EventEntity).includes(k))).toBe(true);
  });

  it('keep the JSON of a recorded row as it was', () => {
    const run = { id: 'r', status: 'completed', startedAt: new Date(0), finishedAt: null, options: { trials: 2 }, statistics: null };
    const detail = runDetailResponse({ run: run as never, cells: [], trials: [] });
    expect(JSON.parse(JSON.stringify(detail))).toEqual(JSON.parse(JSON.stringify({ run, cells: [], trials: [] })));
  });
});
