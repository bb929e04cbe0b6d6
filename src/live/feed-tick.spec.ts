import { batchOf, FeedTick, marksOf, packetsOf, type FeedItem } from './feed-tick';
import type { LiveEvent, LiveIteration, LiveMessage } from './live-wire';

const ev = (seq: number, type = 'iteration_started'): FeedItem => ({
  kind: 'event',
  event: { seq, type, iteration: 0, payload: {}, createdAt: '', traceId: 't', spanId: 's' } as LiveEvent,
});
const msg = (idx: number): FeedItem => ({ kind: 'message', message: { idx } as LiveMessage });
const iteration = (idx: number, status: string): FeedItem => ({
  kind: 'emit',
  packet: ['session:iteration', { sessionId: 's', iteration: { idx, status } as LiveIteration }],
});

describe('FeedTick', () => {
  it('keeps order, joins consecutive events, and keeps a snapshot only in its newest state', () => {
    const tick = new FeedTick();
    for (const item of [ev(0), ev(1), iteration(0, 'running'), msg(3), ev(2), iteration(0, 'finished'), ev(3, 'session_finished')])
      tick.add(item);
    const items = tick.take();
    expect(tick.pending).toBe(false);
    const packets = packetsOf('s', items);
    expect(packets.map(([e]) => e)).toEqual(['session:events', 'session:message', 'session:events', 'session:iteration', 'session:events']);
    expect(packets[0]).toEqual([
      'session:events',
      { sessionId: 's', events: [(ev(0) as { event: LiveEvent }).event, (ev(1) as { event: LiveEvent }).event] },
    ]);
    expect(packets[3][1]).toEqual({ sessionId: 's', iteration: { idx: 0, status: 'finished' } });
    expect(marksOf(items)).toEqual({ lastSeq: 3, lastMessageIdx: 3, finished: true });
    expect(batchOf('s', items)).toEqual(['session:batch', { sessionId: 's', items: packets }]);
  });

  it('starts empty again after take', () => {
    const tick = new FeedTick();
    tick.add(iteration(1, 'running'));
    expect(tick.take()).toHaveLength(1);
    tick.add(iteration(1, 'finished'));
    expect(tick.take()).toEqual([iteration(1, 'finished')]);
    expect(marksOf([])).toEqual({ finished: false });
  });
});
