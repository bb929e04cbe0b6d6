import type { JsonSchema } from '../../../llm-types';
import { decodeTextValues } from './text-values';

const schema: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, n: { type: 'integer' }, maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
};

describe('decodeTextValues', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'JSON values of untyped parameters',
      { a: '3', b: 'true', c: '[1, "x"]', d: '{"k": null}' },
      { a: 3, b: true, c: [1, 'x'], d: { k: null } },
    ],
    ['words and dates stay text', { a: 'fast', b: '2024-06-27', c: 'two words' }, { a: 'fast', b: '2024-06-27', c: 'two words' }],
    ['a quoted string loses its quotes', { a: '"hi"' }, { a: 'hi' }],
    ['string parameters are never decoded', { name: '42', maybe: 'true' }, { name: '42', maybe: 'true' }],
    ['typed parameters are decoded', { n: '42' }, { n: 42 }],
  ])('decode (GLM): %s', (_label, args, expected) => {
    expect(decodeTextValues(args, 'decode', schema)).toEqual(expected);
  });

  it('null mode turns only the word null into null', () => {
    expect(decodeTextValues({ a: 'null', b: ' NULL ', c: 'nullable', d: '0' }, 'null', undefined)).toEqual({
      a: null,
      b: null,
      c: 'nullable',
      d: '0',
    });
  });

  it('leaves values alone when the format writes no text values', () => {
    const args = { a: '3' };
    expect(decodeTextValues(args, undefined, undefined)).toBe(args);
  });
});
