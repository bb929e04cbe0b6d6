import { camelKeys } from './camel-keys';

describe('camelKeys', () => {
  it('converts snake_case keys and drops undefined values', () => {
    expect(camelKeys({ max_tool_iterations: 3, num_ctx: undefined, repeat_threshold: 4, first_byte_timeout_ms: 10 })).toEqual({
      maxToolIterations: 3,
      repeatThreshold: 4,
      firstByteTimeoutMs: 10,
    });
  });
});
