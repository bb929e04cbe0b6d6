import { DEFAULT_LOOP_SETTINGS, resolveLoopSettings } from './loop-settings';

describe('loop settings', () => {
  it('defaults to the spec constants', () => {
    expect(DEFAULT_LOOP_SETTINGS).toEqual({
      maxToolIterations: 25, numCtx: 8192, toolTimeoutMs: 30_000, repeatThreshold: 3, sameToolThreshold: 5,
      cycleRepetitions: 3, errorRepeatThreshold: 3, maxNudges: 2, maxMidChainNudges: 2,
      approvalTimeoutMs: 300_000, onRejection: 'continue', doomLoop: 'break', toolExecution: 'parallel',
    });
  });

  it('applies layers in order, an undefined value overriding nothing', () => {
    const s = resolveLoopSettings({ maxToolIterations: 10, numCtx: undefined }, undefined, { numCtx: 4096, maxToolIterations: undefined });
    expect(s).toEqual({ ...DEFAULT_LOOP_SETTINGS, maxToolIterations: 10, numCtx: 4096 });
  });
});
