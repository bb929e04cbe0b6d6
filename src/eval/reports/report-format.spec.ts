import { configLabel, decimal, duration, modelConfigLabel, percent, percentInterval, pValue, rateWithCount } from './report-format';

describe('report formatting', () => {
  it.each([
    [0.625, '62.5%'],
    [1, '100%'],
    [0, '0%'],
    [1 / 3, '33.3%'],
    [0.3, '30%'],
    [0.9995, '100%'],
    [0.0004, '0%'],
  ])('percent(%p) = %s', (x, s) => expect(percent(x)).toBe(s));

  it.each([
    [{ lo: 0.3057, hi: 0.8632 }, '30.6–86.3%'],
    [{ lo: 0, hi: 1 }, '0–100%'],
    [{ lo: null, hi: null }, '–'],
  ])('percentInterval(%p) = %s', (p, s) => expect(percentInterval(p)).toBe(s));

  it.each([
    [{ successes: 5, n: 8, rate: 0.625, lo: 0.3, hi: 0.9 }, '62.5% (5/8)'],
    [{ successes: 0, n: 0, rate: null, lo: null, hi: null }, '– (0/0)'],
  ])('rateWithCount(%p) = %s', (p, s) => expect(rateWithCount(p)).toBe(s));

  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [1000, '1.0 s'],
    [12345, '12.3 s'],
    [59_949, '59.9 s'],
    [59_970, '1 min 00 s'],
    [60_000, '1 min 00 s'],
    [125_400, '2 min 05 s'],
    [3_600_000, '60 min 00 s'],
  ])('duration(%p) = %s', (ms, s) => expect(duration(ms)).toBe(s));

  it.each([
    [null, '–'],
    [1, '1.000'],
    [0.03125, '0.031'],
    [0.001, '0.001'],
    [0.000999, '<0.001'],
    [1.08e-5, '<0.001'],
  ])('pValue(%p) = %s', (p, s) => expect(pValue(p)).toBe(s));

  it.each([
    [null, 'n/a'],
    [0.5, '0.500'],
    [2 / 3, '0.667'],
  ])('decimal(%p) = %s', (x, s) => expect(decimal(x)).toBe(s));

  it('calls the empty configuration key default', () => {
    expect(configLabel('')).toBe('default');
    expect(configLabel('temperature=0')).toBe('temperature=0');
    expect(modelConfigLabel('qwen3:8b', '')).toBe('qwen3:8b [default]');
  });
});
