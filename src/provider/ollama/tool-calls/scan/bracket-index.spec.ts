import { buildBracketIndex, createLazyBracketIndex } from './bracket-index';

describe('buildBracketIndex', () => {
  it('pairs brackets and ignores those inside strings', () => {
    const text = '{"a": "}", "b": [1, "]"]}';
    const index = buildBracketIndex(text);
    expect(index.matchOf(0)).toBe(text.length - 1);
    expect(index.matchOf(text.indexOf('['))).toBe(text.length - 2);
  });

  it('is not thrown off by apostrophes and quotes in prose', () => {
    const text = `it's "odd" {"k": 'v'} and [x]`;
    const index = buildBracketIndex(text);
    expect(index.matchOf(text.indexOf('{'))).toBe(text.indexOf('}'));
    expect(index.matchOf(text.indexOf('['))).toBe(text.indexOf(']'));
  });

  it('leaves unmatched openers unmatched and skips stray closers', () => {
    const text = '] { [ }';
    const index = buildBracketIndex(text);
    expect(index.matchOf(2)).toBe(6);
    expect(index.matchOf(4)).toBe(-1);
    expect(index.matchOf(0)).toBe(-1);
  });
});

describe('createLazyBracketIndex', () => {
  it.each([
    ['JSON with brackets in strings', '{"a": "}", "b": [1, "]"]} tail'],
    ['prose apostrophes and a Python dict', `it's {'k': 'v', "n": [1]} and [x]`],
    ['mismatched and stray brackets', '] { [ } ) ( [ ]'],
    ['nesting', '[[{"x": [[]]}], {}]'],
  ])('agrees with the full index on %s', (_label, text) => {
    const lazy = createLazyBracketIndex(text);
    const full = buildBracketIndex(text);
    for (let i = 0; i < text.length; i++) expect([i, lazy.matchOf(i)]).toEqual([i, full.matchOf(i)]);
  });

  it('stays linear on a wall of unmatched openers', () => {
    const text = '{'.repeat(200000);
    const lazy = createLazyBracketIndex(text);
    const started = performance.now();
    for (let i = 0; i < text.length; i++) lazy.matchOf(i);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
