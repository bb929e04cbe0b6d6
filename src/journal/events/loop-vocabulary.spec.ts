import {
  LOOP_BREAK_KINDS,
  PATHOLOGY_GROUPS,
  PATHOLOGY_KEYS,
  PATHOLOGY_LABELS,
  TERMINATION_REASONS,
  loopVocabulary,
} from './loop-vocabulary';

describe("the loop's vocabulary", () => {
  it('puts every pathology key in exactly one group (a dashboard rate per group counts each kind once)', () => {
    const grouped = Object.values(PATHOLOGY_GROUPS).flat();
    expect([...grouped].sort()).toEqual([...PATHOLOGY_KEYS].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('groups the breaks of repetition apart from the iteration limit', () => {
    expect(PATHOLOGY_GROUPS.loop_break).toEqual(LOOP_BREAK_KINDS.filter((k) => k !== 'max_iterations'));
  });

  it('answers the viewer every termination reason with a tone and every pathology key with its label, in order', () => {
    const v = loopVocabulary();
    expect(v.terminations.map((t) => t.reason)).toEqual([...TERMINATION_REASONS]);
    expect(v.terminations.every((t) => ['ok', 'warn', 'bad'].includes(t.tone))).toBe(true);
    expect(v.pathologies.map((p) => p.key)).toEqual([...PATHOLOGY_KEYS]);
    expect(v.pathologies.every((p) => p.label === PATHOLOGY_LABELS[p.key] && p.label.length > 0)).toBe(true);
  });
});
