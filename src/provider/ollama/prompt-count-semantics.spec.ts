import { parseServerVersion, promptCount, promptCountSemantics } from './prompt-count-semantics';

describe('promptCountSemantics (what prompt_eval_count means, by server version)', () => {
  it.each([
    ['0.30.0', 'uncached_only'],
    ['0.30.7', 'uncached_only'],
    ['v0.30.1-rc2', 'uncached_only'],
    ['0.29.9', 'full_prompt'],
    ['0.31.0', 'full_prompt'],
    ['0.33.0-rc', 'full_prompt'],
    ['0.1.32', 'full_prompt'],
    ['0.0.0', 'full_prompt'],
    ['not-a-version', 'full_prompt'],
    [null, 'full_prompt'],
  ] as const)('%s → %s', (version, expected) => {
    expect(promptCountSemantics(version)).toBe(expected);
  });

  it('parses versions', () => {
    expect(parseServerVersion('0.30.2')).toEqual([0, 30, 2]);
    expect(parseServerVersion('v1.2')).toEqual([1, 2, 0]);
    expect(parseServerVersion('')).toBeNull();
  });
});

describe('promptCount (the whole prompt, or null when it cannot be told)', () => {
  it.each([
    { name: 'current server: the count is the whole prompt', version: '0.33.0', count: 5000, cached: undefined, total: 5000 },
    { name: 'current server with the cached part reported: still the count', version: '0.33.0', count: 5000, cached: 4900, total: 5000 },
    {
      name: 'current server, field absent (early builds, fully cached): not judged',
      version: '0.1.30',
      count: undefined,
      cached: undefined,
      total: null,
    },
    {
      name: '0.30.x without the cached field: a lower bound only, not judged',
      version: '0.30.2',
      count: 12,
      cached: undefined,
      total: null,
    },
    { name: '0.30.x with the cached field: evaluated plus cached', version: '0.30.2', count: 12, cached: 7800, total: 7812 },
    { name: '0.30.x fully cached (count omitted as 0)', version: '0.30.2', count: undefined, cached: 7800, total: 7800 },
    { name: 'unknown version: read as current', version: null, count: 300, cached: undefined, total: 300 },
  ])('$name', ({ version, count, cached, total }) => {
    expect(promptCount({ version, promptEvalCount: count, cachedCount: cached }).total).toBe(total);
  });
});
