import { RunnerTracker } from './runner-tracker';

const H = 'http://gpu:11434';

function tracker() {
  let t = 0;
  const clock = { advance: (ms: number) => (t += ms) };
  return { runners: new RunnerTracker(() => t, 1000), clock };
}

describe('RunnerTracker', () => {
  it('reports no finding for a cold first load, nor for warm replies', () => {
    const { runners } = tracker();
    const first = runners.beforeSend(H, 'qwen3:8b', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(first, 3000)).toEqual({ loaded: true, finding: null });
    const second = runners.beforeSend(H, 'qwen3:8b', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(second, 3)).toEqual({ loaded: false, finding: null });
  });

  it('finds options_changed when Loupe sends other runner options after a warm-up', () => {
    const { runners } = tracker();
    runners.loaded(H, 'qwen3:8b', { numCtx: 8192 }, 1_800_000);
    const t = runners.beforeSend(H, 'qwen3:8b', { numCtx: 4096 }, 1_800_000);
    expect(runners.replied(t, 2500).finding).toMatchObject({
      cause: 'options_changed',
      previous: { numCtx: 8192 },
      next: { numCtx: 4096 },
    });
  });

  it('finds keep_alive_expired after an idle gap longer than the keep_alive sent', () => {
    const { runners, clock } = tracker();
    runners.loaded(H, 'm', { numCtx: 8192 }, 300_000);
    clock.advance(300_001);
    const t = runners.beforeSend(H, 'm', { numCtx: 8192 }, 300_000);
    expect(runners.replied(t, 2000).finding).toMatchObject({ cause: 'keep_alive_expired', idleMs: 300_001, keepAliveMs: 300_000 });
  });

  it('finds evicted when another model was loaded on the host since', () => {
    const { runners, clock } = tracker();
    runners.loaded(H, 'a', { numCtx: 8192 }, 1_800_000);
    clock.advance(10);
    runners.loaded(H, 'b', { numCtx: 8192 }, 1_800_000);
    clock.advance(10);
    const t = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(t, 2000).finding?.cause).toBe('evicted');
  });

  it('finds unknown when nothing Loupe did explains the load, and no idle time while requests overlap', () => {
    const { runners } = tracker();
    runners.loaded(H, 'a', { numCtx: 8192 }, 1_800_000);
    const t1 = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    const t2 = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    expect(t2.idleMs).toBeNull();
    expect(runners.replied(t1, 5).finding).toBeNull();
    expect(runners.replied(t2, 2000).finding).toMatchObject({ cause: 'unknown', idleMs: null });
  });

  it('learns a slow warm figure (0.32.x metadata reads) and does not call it a load', () => {
    const { runners } = tracker();
    runners.loaded(H, 'a', { numCtx: 8192 }, 1_800_000);
    const t1 = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(t1, 900).loaded).toBe(false);
    const t2 = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(t2, 1400).loaded).toBe(false);
    const t3 = runners.beforeSend(H, 'a', { numCtx: 8192 }, 1_800_000);
    expect(runners.replied(t3, 3000).finding?.cause).toBe('unknown');
  });

  it('keeps the loaded context only for the runner options it was read for', () => {
    const { runners } = tracker();
    runners.loaded(H, 'llama3.2', { numCtx: 8192 }, 1_800_000);
    runners.setContextLength(H, 'llama3.2', { numCtx: 8192 }, 4096);
    expect(runners.contextLength(H, 'llama3.2:latest', { numCtx: 8192 })).toBe(4096);
    expect(runners.contextLength(H, 'llama3.2', { numCtx: 2048 })).toBeUndefined();
    runners.setContextLengthIfIdle(H, 'llama3.2:latest', 8192);
    expect(runners.contextLength(H, 'llama3.2', { numCtx: 8192 })).toBe(8192);
  });
});
