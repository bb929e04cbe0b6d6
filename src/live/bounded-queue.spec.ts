import { BoundedQueue } from './bounded-queue';

describe('BoundedQueue', () => {
  it('keeps order and refuses pushes past its capacity', () => {
    const q = new BoundedQueue<number>(3);
    expect([q.push(1), q.push(2), q.push(3), q.push(4)]).toEqual([true, true, true, false]);
    expect(q.size).toBe(3);
    expect(q.peek()).toBe(1);
    expect([q.shift(), q.shift()]).toEqual([1, 2]);
    expect(q.push(5)).toBe(true);
    expect(q.find((n) => n > 3)).toBe(5);
    expect(q.find((n) => n > 5)).toBeUndefined();
    expect([q.shift(), q.shift(), q.shift()]).toEqual([3, 5, undefined]);
  });

  it('stays correct across many pushes and shifts (compaction), and clears', () => {
    const q = new BoundedQueue<number>(10);
    let next = 0;
    let expected = 0;
    for (let round = 0; round < 5000; round++) {
      while (q.push(next)) next++;
      for (let i = 0; i < 7; i++) expect(q.shift()).toBe(expected++);
    }
    expect(q.size).toBe(next - expected);
    q.clear();
    expect(q.size).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('needs a capacity', () => {
    expect(() => new BoundedQueue(0)).toThrow(/capacity of at least 1/);
  });
});
