import { claimableTrials } from './worker-slots';

describe('claimableTrials', () => {
  it('fills the free slots while the finished trials are being recorded', () => {
    expect(claimableTrials(2, 0, 0)).toBe(2);
    // one running, one finished and being recorded: its slot is free already
    expect(claimableTrials(2, 1, 2)).toBe(1);
    expect(claimableTrials(4, 1, 3)).toBe(3);
  });

  it('claims nothing while every slot runs a trial', () => {
    expect(claimableTrials(2, 2, 2)).toBe(0);
    expect(claimableTrials(2, 2, 4)).toBe(0);
  });

  it('holds back once as many finished trials as slots wait on the database', () => {
    // two slots free, but two finished trials still wait for their verdicts to be written
    expect(claimableTrials(2, 0, 2)).toBe(2);
    expect(claimableTrials(2, 0, 3)).toBe(1);
    expect(claimableTrials(2, 0, 4)).toBe(0);
    expect(claimableTrials(2, 1, 4)).toBe(0);
  });
});
