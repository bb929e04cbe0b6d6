import { ollamaPhaseTimeline } from './ollama-phase-timeline';

describe('ollamaPhaseTimeline', () => {
  it('lays load, queue, prefill and decode end to end, ending with the call', () => {
    const phases = ollamaPhaseTimeline(1000, 2000, { wallMs: 1000, loadMs: 300, serverQueueMs: 100, promptEvalMs: 200, evalMs: 350 });
    expect(phases).toEqual([
      { phase: 'load', startMs: 1050, endMs: 1350 },
      { phase: 'queue', startMs: 1350, endMs: 1450 },
      { phase: 'prefill', startMs: 1450, endMs: 1650 },
      { phase: 'decode', startMs: 1650, endMs: 2000 },
    ]);
  });

  it('keeps zero-length load, prefill and decode but leaves out a queue with no wait', () => {
    const phases = ollamaPhaseTimeline(0, 10, { wallMs: 10, loadMs: 0, serverQueueMs: 0, promptEvalMs: 0, evalMs: 4 });
    expect(phases.map((p) => [p.phase, p.startMs, p.endMs])).toEqual([
      ['load', 6, 6],
      ['prefill', 6, 6],
      ['decode', 6, 10],
    ]);
  });

  it('never starts a phase before the call (server figures larger than the client saw)', () => {
    const phases = ollamaPhaseTimeline(100, 200, { wallMs: 100, loadMs: 500, promptEvalMs: 50, evalMs: 30 });
    expect(phases).toEqual([
      { phase: 'load', startMs: 100, endMs: 120 },
      { phase: 'prefill', startMs: 120, endMs: 170 },
      { phase: 'decode', startMs: 170, endMs: 200 },
    ]);
  });

  it('has nothing to lay out when Ollama reported no durations (a stream cut short)', () => {
    expect(ollamaPhaseTimeline(0, 50, { wallMs: 50 })).toEqual([]);
  });
});
