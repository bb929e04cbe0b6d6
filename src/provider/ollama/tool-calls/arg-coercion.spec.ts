import type { JsonSchema } from '../../llm-types';
import { coerceArgsToSchema } from './arg-coercion';

const schema = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });

describe('coerceArgsToSchema', () => {
  it.each<[string, Record<string, JsonSchema>, Record<string, unknown>, Record<string, unknown>, Array<[string, string, string]>]>([
    ['"42" → 42 for an integer', { n: { type: 'integer' } }, { n: '42' }, { n: 42 }, [['n', 'string', 'integer']]],
    ['"2.5" → 2.5 for a number', { x: { type: 'number' } }, { x: ' 2.5 ' }, { x: 2.5 }, [['x', 'string', 'number']]],
    ['"True" → true for a boolean', { on: { type: 'boolean' } }, { on: 'True' }, { on: true }, [['on', 'string', 'boolean']]],
    ['JSON text → object', { cfg: { type: 'object' } }, { cfg: '{"a": 1}' }, { cfg: { a: 1 } }, [['cfg', 'string', 'object']]],
    [
      'JSON text → array',
      { ids: { type: 'array', items: { type: 'integer' } } },
      { ids: '[1, 2]' },
      { ids: [1, 2] },
      [['ids', 'string', 'array']],
    ],
    [
      'one string where a list of strings is wanted',
      { files: { type: 'array', items: { type: 'string' } } },
      { files: 'a.txt' },
      { files: ['a.txt'] },
      [['files', 'string', 'array']],
    ],
    ['7 → "7" for a string', { code: { type: 'string' } }, { code: 7 }, { code: '7' }, [['code', 'integer', 'string']]],
    ['a quoted number stays a string when a string is wanted', { zip: { type: 'string' } }, { zip: '0042' }, { zip: '0042' }, []],
    ['"2.5" is not an integer', { n: { type: 'integer' } }, { n: '2.5' }, { n: '2.5' }, []],
    ['"yes" is not a boolean', { on: { type: 'boolean' } }, { on: 'yes' }, { on: 'yes' }, []],
    ['a union that already accepts the value', { v: { type: ['string', 'integer'] } }, { v: '5' }, { v: '5' }, []],
    ['anyOf members count', { v: { anyOf: [{ type: 'integer' }, { type: 'null' }] } }, { v: '9' }, { v: 9 }, [['v', 'string', 'integer']]],
    [
      'nested properties use dotted keys',
      { o: { type: 'object', properties: { d: { type: 'integer' } } } },
      { o: { d: '3' } },
      { o: { d: 3 } },
      [['o.d', 'string', 'integer']],
    ],
    ['keys without a schema are untouched', { n: { type: 'integer' } }, { other: '1' }, { other: '1' }, []],
  ])('%s', (_label, props, args, expected, coercions) => {
    const r = coerceArgsToSchema(args, schema(props));
    expect(r.args).toEqual(expected);
    expect(r.coercions).toEqual(coercions.map(([key, from, to]) => ({ key, from, to })));
  });
});
