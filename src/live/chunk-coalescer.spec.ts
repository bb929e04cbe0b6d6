import { ChunkCoalescer } from './chunk-coalescer';

const step = (iteration: number) => ({ iteration, purpose: 'step' as const });

describe('ChunkCoalescer', () => {
  it('joins what streamed in a tick into one chunk, content and thinking apart, each in order', () => {
    const c = new ChunkCoalescer('s1');
    expect(c.take()).toBeUndefined();
    const at = step(2);
    for (const d of [{ thinking: 'Let me ' }, { thinking: 'think.' }, { content: 'Hello' }, { content: ', world' }]) {
      expect(c.add(d, at)).toBeUndefined();
    }
    expect(c.pending).toBe(true);
    expect(c.take()).toEqual({
      sessionId: 's1',
      iteration: 2,
      purpose: 'step',
      seq: 0,
      deltas: 4,
      content: 'Hello, world',
      thinking: 'Let me think.',
    });
    expect(c.pending).toBe(false);
    expect(c.take()).toBeUndefined();
  });

  it('numbers chunks from 0 with no gap', () => {
    const c = new ChunkCoalescer('s1');
    const seqs: number[] = [];
    for (const word of ['a', ' b', ' c']) {
      c.add({ content: word }, step(0));
      seqs.push(c.take()!.seq);
    }
    expect(seqs).toEqual([0, 1, 2]);
  });

  it('never joins two model calls: a piece of another call closes the waiting chunk', () => {
    const c = new ChunkCoalescer('s1');
    c.add({ content: 'end of step' }, step(3));
    const closed = c.add({ content: 'Summary' }, { iteration: 3, purpose: 'compaction' });
    expect(closed).toEqual(expect.objectContaining({ iteration: 3, purpose: 'step', content: 'end of step', seq: 0, deltas: 1 }));
    const next = c.add({ content: 'next' }, step(4));
    expect(next).toEqual(expect.objectContaining({ purpose: 'compaction', content: 'Summary', seq: 1 }));
    expect(c.take()).toEqual(expect.objectContaining({ iteration: 4, content: 'next', seq: 2 }));
  });
});
