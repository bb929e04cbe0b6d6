import { MessageQueue } from './message-queue';

describe('MessageQueue', () => {
  it('names messages in queue order and hands them out one at a time (dexto: context-management-plan.md §4)', () => {
    const q = new MessageQueue();
    expect(q.enqueue('first', 1)).toBe(1);
    expect(q.lastId).toBe('msg_1');
    expect(q.enqueue('second', 2)).toBe(2);
    expect(q.dequeue()).toEqual({ id: 'msg_1', text: 'first', queuedAt: 1 });
    expect(q.size).toBe(1);
    expect(q.dequeue()?.id).toBe('msg_2');
    expect(q.dequeue()).toBeUndefined();
  });

  it('drains everything at once, and ids keep counting after a drain', () => {
    const q = new MessageQueue();
    q.enqueue('a');
    q.enqueue('b');
    expect(q.drain().map((m) => m.id)).toEqual(['msg_1', 'msg_2']);
    q.enqueue('c');
    expect(q.lastId).toBe('msg_3');
  });
});
