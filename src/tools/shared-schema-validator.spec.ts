import { CachingSchemaValidator } from './shared-schema-validator';

describe('CachingSchemaValidator', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] } as const;

  it('validates as Ajv does, with its error text', () => {
    const v = new CachingSchemaValidator().getValidator<{ n: number }>(schema);
    expect(v({ n: 2 })).toEqual({ valid: true, data: { n: 2 }, errorMessage: undefined });
    const bad = v({ n: 0 });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/n must be >= 1/);
    expect(v({}).errorMessage).toMatch(/must have required property 'n'/);
  });

  it('compiles a schema once, however many copies of it are listed', () => {
    const cache = new CachingSchemaValidator();
    const first = cache.getValidator(JSON.parse(JSON.stringify(schema)));
    const second = cache.getValidator(JSON.parse(JSON.stringify(schema)));
    expect(second).toBe(first);
    expect(cache.size).toBe(1);
    expect(cache.getValidator({ type: 'string' })).not.toBe(first);
    expect(cache.size).toBe(2);
  });

  it('keeps at most a thousand compiled schemas, dropping the oldest', () => {
    const cache = new CachingSchemaValidator();
    const oldest = cache.getValidator({ type: 'string', maxLength: 0 });
    for (let i = 1; i <= 1_000; i++) cache.getValidator({ type: 'string', maxLength: i });
    expect(cache.size).toBe(1_000);
    expect(cache.getValidator({ type: 'string', maxLength: 0 })).not.toBe(oldest);
  });
});
