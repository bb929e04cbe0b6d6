import { FifoSemaphore } from './standin-semaphore';

const tick = () => new Promise((r) => setImmediate(r));

describe('FifoSemaphore', () => {
  it('grants up to capacity at once, then queues', async () => {
    const sem = new FifoSemaphore(2);
    await sem.acquire();
    await sem.acquire();
    expect(sem.active).toBe(2);
    expect(sem.saturated).toBe(true);
    let third = false;
    void sem.acquire().then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    expect(sem.waiting).toBe(1);
  });

  it('serves waiters in arrival order and never lets a newcomer barge in', async () => {
    const sem = new FifoSemaphore(1);
    const first = await sem.acquire();
    const order: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) => sem.acquire().then((release) => ({ name, release })));
    waiters.forEach((w) => void w.then(({ name }) => order.push(name)));
    first();
    const a = await waiters[0];
    // a freed slot goes to the queue head even if someone calls acquire right now
    let late = false;
    void sem.acquire().then(() => (late = true));
    a.release();
    const b = await waiters[1];
    b.release();
    const c = await waiters[2];
    await tick();
    expect(order).toEqual(['a', 'b', 'c']);
    expect(late).toBe(false);
    c.release();
    await tick();
    expect(late).toBe(true);
  });

  it('an aborted waiter leaves the queue without taking a slot', async () => {
    const sem = new FifoSemaphore(1);
    const release = await sem.acquire();
    const controller = new AbortController();
    const aborted = sem.acquire(controller.signal);
    const next = sem.acquire();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(sem.waiting).toBe(1);
    release();
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(sem.active).toBe(1);
  });

  it('release is idempotent', async () => {
    const sem = new FifoSemaphore(1);
    const release = await sem.acquire();
    release();
    release();
    expect(sem.active).toBe(0);
  });

  it('rejects a capacity below 1', () => {
    expect(() => new FifoSemaphore(0)).toThrow(/capacity/);
  });
});
