import { closestName, editDistance, unknownNameMessage } from './closest-name';

describe('closestName', () => {
  it.each([
    ['sloot_released', ['slot_released', 'slot_acquired', 'tool_result'], 'slot_released'],
    ['repeat_brake', ['repeat_break', 'cycle_break'], 'repeat_break'],
    ['compleetd', ['completed', 'aborted'], 'completed'],
    ['Tool_Result', ['tool_result'], 'tool_result'],
    ['something_else_entirely', ['slot_released', 'tool_result'], undefined],
  ])('%s → %s', (name, known, want) => {
    expect(closestName(name, known)).toBe(want);
  });

  it('counts an adjacent swap as one edit', () => {
    expect(editDistance('nugde', 'nudge')).toBe(1);
  });

  it('names the suggestion and the known names', () => {
    expect(unknownNameMessage('event type', 'sloot_released', ['slot_released', 'slot_acquired'])).toBe(
      'unknown event type "sloot_released"; did you mean "slot_released"? (known: slot_released, slot_acquired)',
    );
  });
});
