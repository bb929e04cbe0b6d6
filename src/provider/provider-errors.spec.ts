import { ContextTooLongError, ProviderError, SlotWaitTimeoutError, ToolsUnsupportedError, toProviderError } from './provider-errors';
import type { ProviderErrorInfo } from './provider-errors';

const info = (kind: ProviderErrorInfo['kind']): ProviderErrorInfo => ({ kind, retryable: false, message: `${kind} happened` });

describe('toProviderError', () => {
  it.each([
    ['context_too_long', 'ContextTooLongError', [true, true, false]],
    ['tools_unsupported', 'ToolsUnsupportedError', [true, false, true]],
    ['server_busy', 'ProviderError', [true, false, false]],
  ] as const)('builds the %s error as %s', (kind, name, [isProvider, isContext, isTools]) => {
    const cause = new Error('underlying');
    const error = toProviderError(info(kind), cause);
    expect({ name: error.name, message: error.message, info: error.info, cause: error.cause }).toEqual({
      name,
      message: `${kind} happened`,
      info: info(kind),
      cause,
    });
    expect([ProviderError.isInstance(error), ContextTooLongError.isInstance(error), ToolsUnsupportedError.isInstance(error)]).toEqual([
      isProvider,
      isContext,
      isTools,
    ]);
  });
});

describe('marker-based isInstance', () => {
  it('recognises an error from another copy of the module by its marker', () => {
    // what a duplicate module copy would produce: same global symbol, different class
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('loupe.provider.ProviderError')]: true,
      [Symbol.for('loupe.provider.ContextTooLongError')]: true,
      info: info('context_too_long'),
    });
    expect([ProviderError.isInstance(foreign), ContextTooLongError.isInstance(foreign), ToolsUnsupportedError.isInstance(foreign)]).toEqual(
      [true, true, false],
    );
  });

  it.each([null, undefined, 'ProviderError', new Error('plain'), { info: info('unknown') }])('rejects %p', (value) => {
    expect(ProviderError.isInstance(value)).toBe(false);
  });

  it('describes a slot wait timeout', () => {
    const error = new SlotWaitTimeoutError(3, 300_000);
    expect({ name: error.name, message: error.message, weight: error.weight, waitedMs: error.waitedMs }).toEqual({
      name: 'SlotWaitTimeoutError',
      message: 'Timed out after 300000 ms waiting for an inference slot (weight 3)',
      weight: 3,
      waitedMs: 300_000,
    });
    expect([SlotWaitTimeoutError.isInstance(error), ProviderError.isInstance(error)]).toEqual([true, false]);
  });
});
