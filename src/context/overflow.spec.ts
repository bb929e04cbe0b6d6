import { DEFAULT_RESERVED_OUTPUT_TOKENS, defaultReservedOutputTokens, isContextOverflow } from './overflow';

describe('isContextOverflow (reactive, on actual token counts)', () => {
  it.each([
    {
      name: 'passes a prompt inside the usable window',
      input: { promptTokens: 6143, numCtx: 8192, reservedOutputTokens: 2048 },
      expected: null,
    },
    {
      name: 'flags a prompt that reaches the usable window',
      input: { promptTokens: 6144, numCtx: 8192, reservedOutputTokens: 2048 },
      expected: {
        kind: 'context_overflow',
        reason: 'usable_window_exceeded',
        usedTokens: 6144,
        usableTokens: 6144,
        numCtx: 8192,
        reservedOutputTokens: 2048,
      },
    },
    {
      name: 'counts the last output, which the next prompt will carry',
      input: { promptTokens: 6000, outputTokens: 200, numCtx: 8192, reservedOutputTokens: 2048 },
      expected: {
        kind: 'context_overflow',
        reason: 'usable_window_exceeded',
        usedTokens: 6200,
        usableTokens: 6144,
        numCtx: 8192,
        reservedOutputTokens: 2048,
      },
    },
    {
      name: 'reserves a quarter of a small window by default',
      input: { promptTokens: 3072, numCtx: 4096 },
      expected: {
        kind: 'context_overflow',
        reason: 'usable_window_exceeded',
        usedTokens: 3072,
        usableTokens: 3072,
        numCtx: 4096,
        reservedOutputTokens: 1024,
      },
    },
    { name: 'reserves 2,048 tokens of a large window by default', input: { promptTokens: 30_000, numCtx: 32768 }, expected: null },
  ])('$name', ({ input, expected }) => {
    expect(isContextOverflow(input)).toEqual(expected);
  });

  it.each([
    [4096, 1024],
    [8192, 2048],
    [32768, DEFAULT_RESERVED_OUTPUT_TOKENS],
  ])('reserves %i → %i output tokens by default', (numCtx, reserved) => {
    expect(defaultReservedOutputTokens(numCtx)).toBe(reserved);
  });
});
