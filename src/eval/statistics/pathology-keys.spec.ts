import { comparePathologyKeys, PATHOLOGY_KEYS } from './pathology-keys';

describe('comparePathologyKeys', () => {
  it('orders known keys as listed and unknown ones after them, alphabetically', () => {
    const keys = ['zzz.new', 'context_overflow', 'aaa.new', 'nudge.tooShort', 'repeat_break', 'max_iterations'];
    expect([...keys].sort(comparePathologyKeys)).toEqual([
      'repeat_break',
      'max_iterations',
      'nudge.tooShort',
      'context_overflow',
      'aaa.new',
      'zzz.new',
    ]);
  });

  it('lists every key once', () => {
    expect(new Set(PATHOLOGY_KEYS).size).toBe(PATHOLOGY_KEYS.length);
    expect(PATHOLOGY_KEYS).toHaveLength(23);
  });
});
