import { PULL_STATUS_RETENTION_MS, PullTracker, isPullFinished } from './pull-tracker';
import type { PullProgress } from './pull-tracker';

const T0 = 1_700_000_000_000;
const LAYER_A = 'sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff';
const LAYER_B = 'sha256:966de95ca8a62200913e3f8bfbf84c8494536f1b94b49166851e76644e966396';

// a real /api/pull stream, as the protocol reference shows it
const PULL_LINES: PullProgress[] = [
  { status: 'pulling manifest' },
  { status: 'pulling dde5aa3fc5ff', digest: LAYER_A, total: 2_000, completed: 500 },
  { status: 'pulling dde5aa3fc5ff', digest: LAYER_A, total: 2_000, completed: 2_000 },
  { status: 'pulling 966de95ca8a6', digest: LAYER_B, total: 1_000, completed: 1_000 },
  { status: 'verifying sha256 digest' },
  { status: 'writing manifest' },
  { status: 'success' },
];

describe('PullTracker', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  it('follows a pull line by line, summing bytes over the layers seen', () => {
    const tracker = new PullTracker();
    tracker.start('llama3.2');
    const seen = PULL_LINES.map((line) => {
      jest.advanceTimersByTime(100);
      const status = tracker.update('llama3.2', line);
      return status && [status.status, status.percent, status.completedBytes, status.totalBytes, status.currentLayer];
    });
    expect(seen).toEqual([
      ['pulling manifest', 0, 0, 0, undefined],
      ['pulling dde5aa3fc5ff', 25, 500, 2_000, 'dde5aa3fc5ff'],
      ['pulling dde5aa3fc5ff', 100, 2_000, 2_000, 'dde5aa3fc5ff'],
      ['pulling 966de95ca8a6', 100, 3_000, 3_000, '966de95ca8a6'],
      ['verifying sha256 digest', 100, 3_000, 3_000, '966de95ca8a6'],
      ['writing manifest', 100, 3_000, 3_000, '966de95ca8a6'],
      ['success', 100, 3_000, 3_000, '966de95ca8a6'],
    ]);
    expect(tracker.getPullStatus('llama3.2:latest')).toEqual({
      model: 'llama3.2',
      status: 'success',
      percent: 100,
      completedBytes: 3_000,
      totalBytes: 3_000,
      currentLayer: '966de95ca8a6',
      startedAt: T0,
      finishedAt: T0 + 700,
    });
  });

  it('records a mid-stream error line as a finished pull with the error', () => {
    const tracker = new PullTracker();
    tracker.start('nope:1b');
    tracker.update('nope:1b', { status: 'pulling manifest' });
    jest.advanceTimersByTime(50);
    expect(tracker.update('nope:1b', { error: 'pull model manifest: file does not exist' })).toEqual({
      model: 'nope:1b',
      status: 'error',
      percent: 0,
      completedBytes: 0,
      totalBytes: 0,
      error: 'pull model manifest: file does not exist',
      startedAt: T0,
      finishedAt: T0 + 50,
    });
  });

  it('records a thrown error through fail()', () => {
    const tracker = new PullTracker();
    tracker.start('qwen3:8b');
    expect(tracker.fail('qwen3:8b', new TypeError('fetch failed'))).toMatchObject({ status: 'error', error: 'fetch failed' });
  });

  it('reports a second pull of a running model instead of tracking it twice', () => {
    const tracker = new PullTracker();
    expect(tracker.start('qwen3:8b').started).toBe(true);
    tracker.update('qwen3:8b', { status: 'pulling aaaaaaaaaaaa', digest: 'sha256:aaaaaaaaaaaa00', total: 10, completed: 4 });
    expect(tracker.start('QWEN3:8b')).toEqual({
      started: false,
      status: {
        model: 'qwen3:8b',
        status: 'pulling aaaaaaaaaaaa',
        percent: 40,
        completedBytes: 4,
        totalBytes: 10,
        currentLayer: 'aaaaaaaaaaaa',
        startedAt: T0,
      },
    });
    expect(tracker.getActivePulls()).toHaveLength(1);
  });

  it('tracks pulls of different models side by side', () => {
    const tracker = new PullTracker();
    tracker.start('qwen3:8b');
    tracker.start('llama3.2');
    tracker.update('llama3.2', { status: 'success' });
    expect(tracker.getActivePulls().map((s) => [s.model, s.status])).toEqual([
      ['qwen3:8b', 'starting'],
      ['llama3.2', 'success'],
    ]);
    expect([tracker.isPulling('qwen3:8b'), tracker.isPulling('llama3.2')]).toEqual([true, false]);
  });

  it('drops finished statuses 60 s after they finish', () => {
    const tracker = new PullTracker();
    tracker.start('a');
    tracker.start('b');
    tracker.update('a', { status: 'success' });
    jest.advanceTimersByTime(30_000);
    tracker.fail('b', 'disk full');
    jest.advanceTimersByTime(PULL_STATUS_RETENTION_MS - 30_000 - 1);
    expect(tracker.getActivePulls().map((s) => s.model)).toEqual(['a', 'b']);
    jest.advanceTimersByTime(1);
    expect(tracker.getActivePulls().map((s) => s.model)).toEqual(['b']);
    jest.advanceTimersByTime(30_000);
    expect(tracker.getActivePulls()).toEqual([]);
    expect(tracker.getPullStatus('a')).toBeUndefined();
  });

  it('lets a model be pulled again after it finished, keeping the new pull past the old timer', () => {
    const tracker = new PullTracker();
    tracker.start('a');
    tracker.update('a', { error: 'network' });
    jest.advanceTimersByTime(10_000);
    expect(tracker.start('a')).toMatchObject({ started: true, status: { status: 'starting', startedAt: T0 + 10_000 } });
    jest.advanceTimersByTime(PULL_STATUS_RETENTION_MS);
    expect(tracker.getPullStatus('a')).toMatchObject({ status: 'starting' });
  });

  it('ignores progress for a model that is not being pulled', () => {
    const tracker = new PullTracker();
    expect([tracker.update('x', { status: 'pulling manifest' }), tracker.complete('x'), tracker.fail('x', 'e')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    tracker.start('x');
    tracker.complete('x');
    expect(tracker.update('x', { status: 'writing manifest' })).toBeUndefined();
  });

  it('clamps completed bytes to the layer size and keeps known totals on partial lines', () => {
    const tracker = new PullTracker();
    tracker.start('m');
    tracker.update('m', { status: 'pulling 0123456789ab', digest: 'sha256:0123456789abcdef', total: 100, completed: 150 });
    expect(tracker.update('m', { status: 'pulling 0123456789ab', digest: 'sha256:0123456789abcdef', completed: 30 })).toMatchObject({
      completedBytes: 30,
      totalBytes: 100,
      percent: 30,
    });
  });

  it('returns copies, so callers cannot change the tracked state', () => {
    const tracker = new PullTracker();
    tracker.start('m').status.percent = 99;
    const status = tracker.getPullStatus('m');
    if (status) status.status = 'success';
    expect(tracker.getPullStatus('m')).toMatchObject({ status: 'starting', percent: 0 });
  });

  it('clears its timers on dispose and uses the injected clock and timers', () => {
    const cleared: unknown[] = [];
    let scheduled = 0;
    const tracker = new PullTracker({
      now: () => 42,
      retentionMs: 5,
      timers: { setTimeout: () => ++scheduled, clearTimeout: (handle) => cleared.push(handle) },
    });
    tracker.start('m');
    expect(tracker.complete('m')).toMatchObject({ startedAt: 42, finishedAt: 42 });
    tracker.dispose();
    expect({ scheduled, cleared, pulls: tracker.getActivePulls() }).toEqual({ scheduled: 1, cleared: [1], pulls: [] });
  });

  it('isPullFinished tells terminal statuses apart', () => {
    const base = { model: 'm', percent: 0, completedBytes: 0, totalBytes: 0, startedAt: 0 };
    expect(['starting', 'pulling manifest', 'success', 'error'].map((status) => isPullFinished({ ...base, status }))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
