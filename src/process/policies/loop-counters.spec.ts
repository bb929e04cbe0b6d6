import { countLoop, NO_COUNTS, type LoopHappening } from './loop-counters';

describe('countLoop', () => {
  it.each<[LoopHappening['kind'], keyof typeof NO_COUNTS]>([
    ['iteration_started', 'iterations'],
    ['inference_made', 'inferences'],
    ['tool_ran', 'toolsCalled'],
    ['nudged', 'nudges'],
    ['mid_chain_nudged', 'midChainNudges'],
  ])('%s counts one %s and nothing else', (kind, field) => {
    const after = countLoop(NO_COUNTS, { kind });
    expect(after).toEqual({ ...NO_COUNTS, [field]: 1 });
    expect(NO_COUNTS[field]).toBe(0); // a new value; the old one is untouched
  });
});
