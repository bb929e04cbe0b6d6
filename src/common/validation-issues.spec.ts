import { z } from 'zod';
import { fieldErrors } from './validation-issues';

const schema = z.strictObject({
  name: z.string(),
  limits: z.strictObject({ turns: z.number().int().min(1) }).optional(),
  env: z.record(z.string().regex(/^[A-Z_]+$/, 'not a valid environment variable name'), z.string()).optional(),
});
const errorsOf = (input: unknown, prefix?: Array<string | number>) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return fieldErrors(r.error.issues, prefix);
};

describe('fieldErrors', () => {
  it('names each unknown key as its own field, under the prefix', () => {
    expect(errorsOf({ name: 'a', colour: 1, size: 2 }, ['options'])).toEqual([
      { field: 'options.colour', message: 'unknown field' },
      { field: 'options.size', message: 'unknown field' },
    ]);
  });

  it('gives a nested field its dotted path, without zod\'s "Invalid input: " prefix', () => {
    const [error] = errorsOf({ name: 'a', limits: { turns: 0 } });
    expect(error.field).toBe('limits.turns');
    expect(error.message).not.toMatch(/^Invalid input/);
  });

  it('reports a bad record key at its own path with its own message, and a wrong top-level value as (body)', () => {
    expect(errorsOf({ name: 'a', env: { 'bad-name': 'x' } })).toEqual([
      { field: 'env.bad-name', message: 'not a valid environment variable name' },
    ]);
    expect(errorsOf(7)).toEqual([{ field: '(body)', message: expect.stringContaining('expected object') }]);
  });
});
