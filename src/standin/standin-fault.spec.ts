import { SERVER_BUSY_ERROR, defaultHttpFaultError, faultChunkIndex, faultTimes, selectFault } from './standin-fault';

describe('faults', () => {
  it("the busy text has Ollama's two spaces", () => {
    expect(SERVER_BUSY_ERROR).toBe('server busy, please try again.  maximum pending requests exceeded');
  });

  it('times defaults to 1 and clamps below 0', () => {
    expect(faultTimes({ kind: 'disconnect', afterChunks: 1 })).toBe(1);
    expect(faultTimes({ kind: 'disconnect', afterChunks: 1, times: -3 })).toBe(0);
    expect(faultTimes({ kind: 'disconnect', afterChunks: 1, times: 2.7 })).toBe(2);
  });

  it('selects the fault until it fired `times` times', () => {
    const turn = { content: 'x', fault: { kind: 'http' as const, status: 429, times: 2 } };
    expect(selectFault(turn, 0)).toBe(turn.fault);
    expect(selectFault(turn, 1)).toBe(turn.fault);
    expect(selectFault(turn, 2)).toBeUndefined();
    expect(selectFault({ content: 'x' }, 0)).toBeUndefined();
  });

  it.each([
    [404, "model 'qwen3:8b' not found"],
    [503, SERVER_BUSY_ERROR],
    [500, 'llama runner process has terminated: exit status 2'],
    [429, 'too many requests'],
  ])('default text for %i', (status, text) => {
    expect(defaultHttpFaultError(status, 'qwen3:8b')).toBe(text);
  });

  it('a stream fault fires at its chunk, at the latest just before the final chunk', () => {
    expect(faultChunkIndex({ kind: 'disconnect', afterChunks: 2 }, 5)).toBe(2);
    expect(faultChunkIndex({ kind: 'disconnect', afterChunks: 0 }, 5)).toBe(0);
    expect(faultChunkIndex({ kind: 'disconnect', afterChunks: 99 }, 5)).toBe(4);
    expect(faultChunkIndex({ kind: 'disconnect', afterChunks: 3 }, 1)).toBe(0);
  });
});
