import { keepsWorkspace, type TrialFinish } from './trial-workspace';

describe('keepsWorkspace', () => {
  const passed: TrialFinish = { judged: true, status: 'passed' };
  const failed: TrialFinish = { judged: true, status: 'failed' };
  const error: TrialFinish = { judged: true, status: 'error' };
  const unjudged: TrialFinish = { judged: true, status: 'unjudged' };
  const interrupted: TrialFinish = { judged: false };

  it('keeps, by default, the workspace of every trial that did not pass, and only those', () => {
    expect([passed, failed, error, unjudged, interrupted].map((f) => keepsWorkspace('failed', f))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it('keeps every one with `all` and none with `none`', () => {
    expect([passed, failed, interrupted].map((f) => keepsWorkspace('all', f))).toEqual([true, true, true]);
    expect([passed, failed, interrupted].map((f) => keepsWorkspace('none', f))).toEqual([false, false, false]);
  });
});
