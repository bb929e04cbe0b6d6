import { CleanupStack } from './cleanup-stack';

describe('CleanupStack', () => {
  it('runs the undos newest first, awaiting each', async () => {
    const order: string[] = [];
    const stack = new CleanupStack();
    stack.defer(() => void order.push('backend'));
    stack.defer(async () => {
      await Promise.resolve();
      order.push('tools');
    });
    stack.defer(() => void order.push('session'));
    await stack.close(() => undefined);
    expect(order).toEqual(['session', 'tools', 'backend']);
  });

  it('keeps going past a failing undo and reports it', async () => {
    const order: string[] = [];
    const errors: string[] = [];
    const stack = new CleanupStack();
    stack.defer(() => void order.push('first'));
    stack.defer(() => Promise.reject(new Error('port busy')));
    stack.defer(() => {
      throw new Error('already closed');
    });
    await stack.close((e) => errors.push((e as Error).message));
    expect(order).toEqual(['first']);
    expect(errors).toEqual(['already closed', 'port busy']);
  });

  it('runs each undo once, even when closed twice', async () => {
    let runs = 0;
    const stack = new CleanupStack();
    stack.defer(() => void runs++);
    await stack.close(() => undefined);
    await stack.close(() => undefined);
    expect(runs).toBe(1);
  });
});
