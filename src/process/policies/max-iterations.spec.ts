import { MAX_TOOL_ITERATIONS, capRulesOut, detectMaxIterations } from './max-iterations';

describe('detectMaxIterations', () => {
  it('uses the spec constant MAX_TOOL_ITERATIONS = 25', () => {
    expect(MAX_TOOL_ITERATIONS).toBe(25);
  });

  it.each([
    { name: 'continues before the cap', iteration: 24, max: undefined, expected: null },
    {
      name: 'stops when the 25th step has run',
      iteration: 25,
      max: undefined,
      expected: { kind: 'max_iterations', iteration: 25, maxIterations: 25 },
    },
    { name: 'stops past the cap', iteration: 26, max: undefined, expected: { kind: 'max_iterations', iteration: 26, maxIterations: 25 } },
    {
      name: 'honours a tier cap (corvid standard: 15)',
      iteration: 15,
      max: 15,
      expected: { kind: 'max_iterations', iteration: 15, maxIterations: 15 },
    },
    { name: 'continues below a tier cap', iteration: 7, max: 8, expected: null },
  ])('$name', ({ iteration, max, expected }) => {
    expect(detectMaxIterations(iteration, max)).toEqual(expected);
  });
});

describe('capRulesOut', () => {
  it('names what the cap ruled out at the last turn', () => {
    expect(capRulesOut(3, 3, 'loop_warning')).toEqual({ kind: 'max_iterations', iteration: 3, maxIterations: 3, instead: 'loop_warning' });
  });

  it('leaves a turn that is not the last alone', () => {
    expect(capRulesOut(2, 3, 'doom_loop_ask')).toBeNull();
  });
});
