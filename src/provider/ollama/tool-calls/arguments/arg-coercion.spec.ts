import type { JsonSchema } from '../../../llm-types';
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
    // schema typing as the engines do it (vLLM's Hunyuan and Solar parsers, SGLang's)
    ['a Python type name: int', { n: { type: 'int' } }, { n: '7' }, { n: 7 }, [['n', 'string', 'integer']]],
    ['a prefixed type name: uint32', { n: { type: 'uint32' } }, { n: '42' }, { n: 42 }, [['n', 'string', 'integer']]],
    ['a Python type name: list', { l: { type: 'list' } }, { l: '[1]' }, { l: [1] }, [['l', 'string', 'array']]],
    ['"1e3" → 1000 for a number', { x: { type: 'number' } }, { x: '1e3' }, { x: 1000 }, [['x', 'string', 'number']]],
    ['"1" → true for a boolean', { on: { type: 'boolean' } }, { on: '1' }, { on: true }, [['on', 'string', 'boolean']]],
    ['"0" → false for a boolean', { on: { type: 'boolean' } }, { on: '0' }, { on: false }, [['on', 'string', 'boolean']]],
    ['null where the type cannot hold the text', { n: { type: 'integer' } }, { n: 'null' }, { n: null }, [['n', 'string', 'null']]],
    ['"null" stays text for a string', { s: { type: 'string' } }, { s: 'null' }, { s: 'null' }, []],
    ['["integer", "null"] takes a number', { n: { type: ['integer', 'null'] } }, { n: '9' }, { n: 9 }, [['n', 'string', 'integer']]],
    [
      'a Python-literal dict for an object',
      { o: { type: 'object' } },
      { o: "{'a': True, 'b': None}" },
      { o: { a: true, b: null } },
      [['o', 'string', 'object']],
    ],
  ])('%s', (_label, props, args, expected, coercions) => {
    const r = coerceArgsToSchema(args, schema(props));
    expect(r.args).toEqual(expected);
    expect(r.coercions).toEqual(coercions.map(([key, from, to]) => ({ key, from, to })));
  });
});

describe('coerceArgsToSchema and $ref', () => {
  it('types a parameter through a local $ref into $defs', () => {
    const root: JsonSchema = {
      type: 'object',
      properties: { location: { $ref: '#/$defs/Location' }, days: { type: 'integer' } },
      $defs: { Location: { type: 'object', properties: { zip: { type: 'integer' } } } },
    };
    const r = coerceArgsToSchema({ location: '{"zip": "75001"}', days: '3' }, root);
    expect(r.args).toEqual({ location: { zip: 75001 }, days: 3 });
  });

  it('leaves a reference it cannot resolve alone', () => {
    const root: JsonSchema = { type: 'object', properties: { p: { $ref: '#/$defs/Missing' } } };
    expect(coerceArgsToSchema({ p: '1' }, root).args).toEqual({ p: '1' });
  });
});
