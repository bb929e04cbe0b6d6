import { ollamaPhaseTimeline } from './ollama-phase-timeline';

const ms = (n: number) => BigInt(n) * 1_000_000n;

describe('ollamaPhaseTimeline', () => {
  it('lays load, queue, prefill and decode end to end, ending with the call', () => {
    const phases = ollamaPhaseTimeline(ms(1000), ms(2000), {
      wallMs: 1000,
      loadMs: 300,
      serverQueueMs: 100,
      promptEvalMs: 200,
      evalMs: 350,
    });
    expect(phases).toEqual([
      { phase: 'load', startNs: ms(1050), endNs: ms(1350) },
      { phase: 'queue', startNs: ms(1350), endNs: ms(1450) },
      { phase: 'prefill', startNs: ms(1450), endNs: ms(1650) },
      { phase: 'decode', startNs: ms(1650), endNs: ms(2000) },
    ]);
  });

  it('keeps zero-length load, prefill and decode but leaves out a queue with no wait', () => {
    const phases = ollamaPhaseTimeline(0n, ms(10), { wallMs: 10, loadMs: 0, serverQueueMs: 0, promptEvalMs: 0, evalMs: 4 });
    expect(phases.map((p) => [p.phase, p.startNs, p.endNs])).toEqual([
      ['load', ms(6), ms(6)],
      ['prefill', ms(6), ms(6)],
      ['decode', ms(6), ms(10)],
    ]);
  });

  it('keeps sub-millisecond durations exactly (Ollama reports nanoseconds)', () => {
    const [decode] = ollamaPhaseTimeline(0n, 5_000_000n, { wallMs: 5, evalMs: 1.234567 });
    expect(decode).toEqual({ phase: 'decode', startNs: 5_000_000n - 1_234_567n, endNs: 5_000_000n });
  });

  it('never starts a phase before the call (server figures larger than the client saw)', () => {
    const phases = ollamaPhaseTimeline(ms(100), ms(200), { wallMs: 100, loadMs: 500, promptEvalMs: 50, evalMs: 30 });
    expect(phases).toEqual([
      { phase: 'load', startNs: ms(100), endNs: ms(120) },
      { phase: 'prefill', startNs: ms(120), endNs: ms(170) },
      { phase: 'decode', startNs: ms(170), endNs: ms(200) },
    ]);
  });

  it('has nothing to lay out when Ollama reported no durations (a stream cut short)', () => {
    expect(ollamaPhaseTimeline(0n, ms(50), { wallMs: 50 })).toEqual([]);
  });
});
