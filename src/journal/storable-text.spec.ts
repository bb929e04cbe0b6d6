import { isStorable, restoreOriginals, storableJson, storableRowsJson, storableString, toStorableRow } from './storable-text';

describe('storable text', () => {
  it.each([
    ['plain text', 'hello é 😀', true],
    ['a NUL byte', 'a\u0000b', false],
    ['a lone high surrogate (a reply cut mid-emoji)', 'cut \uD83D', false],
    ['a lone low surrogate', '\uDE00 tail', false],
    ['a whole surrogate pair', '\uD83D\uDE00', true],
    ['the replacement and NUL-symbol characters themselves', '\uFFFD \u2400', true],
  ])('%s: storable = %s', (_name, text, storable) => {
    expect(isStorable(text)).toBe(storable);
  });

  it('shows NUL as ␀ and lone surrogates as U+FFFD, leaving pairs intact', () => {
    expect(storableString('a\u0000b\uD83D\uDE00c\uD83D')).toBe('a\u2400b\uD83D\uDE00c\uFFFD');
  });

  it('walks JSON values, keys included, and returns the same object when nothing needs changing', () => {
    const clean = { a: ['x', { b: 1 }], c: null };
    expect(storableJson(clean)).toBe(clean);
    expect(storableJson({ 'k\u0000': ['v\u0000', { deep: '\uDC00' }] })).toEqual({ 'k\u2400': ['v\u2400', { deep: '\uFFFD' }] });
  });

  it('keeps the exact originals of changed fields only, and restores them exactly', () => {
    const row = { id: 'r', content: 'out\u0000put', args: { path: 'a\uD800' }, note: 'fine', missing: null };
    const stored = toStorableRow(row, ['content', 'args', 'note', 'missing']);
    expect(stored.content).toBe('out\u2400put');
    expect(stored.args).toEqual({ path: 'a\uFFFD' });
    expect(stored.note).toBe('fine');
    expect(Object.keys(JSON.parse(stored.originals!))).toEqual(['content', 'args']);
    // the originals survive as JSON text (escapes only), which Postgres text accepts
    expect(isStorable(stored.originals!)).toBe(true);
    expect(restoreOriginals(stored)).toEqual(row);
    expect(row.content).toBe('out\u0000put'); // the input row is untouched
  });

  it('leaves a clean row as it is, with no originals', () => {
    const row = { content: 'plain', args: { a: 'b' } };
    const stored = toStorableRow(row, ['content', 'args']);
    expect(stored).toEqual({ ...row, originals: null });
    expect(restoreOriginals(stored)).toEqual(row);
  });

  it('is not fooled by an escaped-looking backslash sequence in clean text', () => {
    const row = { content: 'a literal \\u0000 written by a model' };
    expect(toStorableRow(row, ['content']).originals).toBeNull();
  });

  it('encodes a clean table as its plain JSON in column order, and a table with unstorable text row by row, only the named fields changed', () => {
    const props = ['id', 'content', 'args', 'originals'];
    const clean = [
      { id: 'a', content: 'plain é 😀', args: { a: 'b' } },
      { id: 'b', content: 'fine', args: {}, extra: 'not a column' },
    ];
    // rows as arrays in column order: a missing field (no originals) and a property that is no column read as NULL / are left out
    expect(storableRowsJson(clean, props, ['content', 'args'])).toBe(
      JSON.stringify([
        ['a', 'plain é 😀', { a: 'b' }, null],
        ['b', 'fine', {}, null],
      ]),
    );
    // a backslash sequence that only looks escaped takes the walk, which changes nothing
    const lookalike = [{ id: 'c', content: 'a literal \\u0000 written by a model' }];
    expect(JSON.parse(storableRowsJson(lookalike, props, ['content']))).toEqual([['c', lookalike[0].content, null, null]]);
    const dirty = [
      { id: 'a', content: 'plain', args: {} },
      { id: 'b', content: 'out\u0000put', args: { path: 'x\uD800' } },
    ];
    const parsed = JSON.parse(storableRowsJson(dirty, props, ['content'])) as unknown[][];
    // the clean row as it was (no originals: NULL in its column)
    expect(parsed[0]).toEqual(['a', 'plain', {}, null]);
    expect(parsed[1][1]).toBe('out\u2400put');
    // an unnamed field is left alone (Postgres refuses it and the journal isolates the entry)
    expect(parsed[1][2]).toEqual({ path: 'x\uD800' });
    const [id, content, args, originals] = parsed[1];
    expect(restoreOriginals({ id, content, args, originals: originals as string })).toEqual(dirty[1]);
    // no storable fields: the plain JSON, even with text Postgres would refuse (the journal isolates it)
    expect(storableRowsJson(dirty, props, [])).toBe(JSON.stringify(dirty.map((r) => [r.id, r.content, r.args, null])));
  });
});
