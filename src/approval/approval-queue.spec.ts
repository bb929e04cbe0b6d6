import { callsWith, moveCall, nextPending, queueCalls } from './approval-queue';

const call = (id: string) => ({ id, name: 'write_file', arguments: { path: `${id}.txt` } });

describe('the approval queue', () => {
  it('asks in call order, with position and total, and a rejection skips only that call', () => {
    let q = queueCalls([call('a'), call('b'), call('c')]);
    expect(nextPending(q)).toEqual({ call: call('a'), queuePosition: 1, totalInQueue: 3 });
    q = moveCall(q, 'a', 'approved');
    expect(nextPending(q)).toEqual({ call: call('b'), queuePosition: 2, totalInQueue: 3 });
    q = moveCall(q, 'b', 'rejected', 'protected');
    q = moveCall(q, 'c', 'approved');
    expect(nextPending(q)).toBeUndefined();
    expect(callsWith(q, 'approved').map((c) => c.id)).toEqual(['a', 'c']);
    expect(q.find((x) => x.call.id === 'b')).toEqual({ call: call('b'), status: 'rejected', reason: 'protected' });
  });

  it.each([
    ['pending', 'executing'],
    ['rejected', 'executing'],
    ['approved', 'completed'],
    ['completed', 'failed'],
  ] as const)('refuses the move %s → %s (the spec lifecycle)', (from, to) => {
    let q = queueCalls([call('a')]);
    if (from !== 'pending') q = moveCall(q, 'a', from === 'completed' ? 'approved' : from);
    if (from === 'completed') q = moveCall(moveCall(q, 'a', 'executing'), 'a', 'completed');
    expect(() => moveCall(q, 'a', to)).toThrow(/cannot go from/);
  });

  it('follows pending → approved → executing → completed | failed', () => {
    let q = queueCalls([call('a'), call('b')]);
    q = moveCall(moveCall(q, 'a', 'approved'), 'a', 'executing');
    q = moveCall(moveCall(q, 'b', 'approved'), 'b', 'executing');
    q = moveCall(moveCall(q, 'a', 'completed'), 'b', 'failed');
    expect(q.map((x) => x.status)).toEqual(['completed', 'failed']);
  });

  it('names an unknown call', () => {
    expect(() => moveCall(queueCalls([call('a')]), 'zzz', 'approved')).toThrow(/no call zzz/);
  });
});
