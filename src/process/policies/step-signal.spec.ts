import { stepSignal } from './step-signal';

describe('stepSignal (opencode: compaction is checked before a rejection stops the loop)', () => {
  it.each([
    [{ needsCompaction: true, blocked: true }, 'compact'],
    [{ needsCompaction: true, blocked: false }, 'compact'],
    [{ needsCompaction: false, blocked: true }, 'stop'],
    [{ needsCompaction: false, blocked: false }, 'continue'],
  ] as const)('%j → %s', (input, expected) => {
    expect(stepSignal(input)).toBe(expected);
  });
});
