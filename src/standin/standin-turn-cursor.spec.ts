import type { StandinScript } from './standin-script';
import { TurnCursor } from './standin-turn-cursor';

const script = (extra: Partial<StandinScript> = {}): StandinScript => ({
  turns: {
    'qwen3:8b': [{ content: 'q1' }, { content: 'q2' }],
    '*': [{ content: 'any1' }],
  },
  ...extra,
});

const contentOf = (c: ReturnType<TurnCursor['claim']>) => (c.kind === 'turn' ? c.turn.content : c.message);

describe('TurnCursor', () => {
  it('serves a model its own turns in order, matching names case-insensitively', () => {
    const cursor = new TurnCursor(script());
    expect(contentOf(cursor.claim('qwen3:8b'))).toBe('q1');
    expect(contentOf(cursor.claim('Qwen3:8B'))).toBe('q2');
    expect(cursor.served('qwen3:8b')).toBe(2);
  });

  it('gives every other model its own cursor over "*"', () => {
    const cursor = new TurnCursor(script());
    expect(contentOf(cursor.claim('llama3.1:8b'))).toBe('any1');
    expect(contentOf(cursor.claim('mistral:7b'))).toBe('any1');
  });

  it('reports exhaustion with the 1-based turn and the script length', () => {
    const cursor = new TurnCursor(script());
    cursor.claim('qwen3:8b');
    cursor.claim('qwen3:8b');
    const c = cursor.claim('qwen3:8b');
    expect(c).toEqual({
      kind: 'exhausted',
      index: 2,
      message: "stand-in script exhausted: model 'qwen3:8b' has no turn 3 (script has 2)",
    });
    expect(new TurnCursor({ turns: {} }).claim('x:1')).toMatchObject({
      message: "stand-in script exhausted: model 'x:1' has no turn 1 (script has 0)",
    });
  });

  it('loops when asked', () => {
    const cursor = new TurnCursor(script({ loop: true }));
    expect(['q1', 'q2', 'q1', 'q2'].map(() => contentOf(cursor.claim('qwen3:8b')))).toEqual(['q1', 'q2', 'q1', 'q2']);
  });

  it('a fault fires for `times` requests; an undelivered reply hands the turn back, so the retry gets it', () => {
    const cursor = new TurnCursor({
      turns: { '*': [{ content: 'real', fault: { kind: 'http', status: 503, times: 2 } }, { content: 'next' }] },
    });
    const undelivered = () => {
      const claim = cursor.claim('m:1');
      if (claim.kind === 'turn') cursor.giveBack('m:1', claim.position);
      return claim;
    };
    const a = undelivered();
    const b = undelivered();
    const c = cursor.claim('m:1');
    expect([a, b].map((x) => x.kind === 'turn' && x.fault?.kind)).toEqual(['http', 'http']);
    expect(c).toMatchObject({ kind: 'turn', index: 0, turn: { content: 'real' } });
    expect(c.kind === 'turn' && c.fault).toBeUndefined();
    expect(contentOf(cursor.claim('m:1'))).toBe('next');
  });

  it('a delivered reply consumes its turn even when it carried a (non-fatal) fault: no turn is replayed', () => {
    const cursor = new TurnCursor({
      turns: { '*': [{ content: 'call', fault: { kind: 'malformed_line', afterChunks: 1, times: 3 } }, { content: 'next' }] },
    });
    expect(cursor.claim('m:1')).toMatchObject({ turn: { content: 'call' }, fault: { kind: 'malformed_line' } });
    expect(contentOf(cursor.claim('m:1'))).toBe('next');
    expect(cursor.served('m:1')).toBe(2);
  });

  it('times: 0 never fires', () => {
    const cursor = new TurnCursor({ turns: { '*': [{ content: 'x', fault: { kind: 'stall', afterChunks: 0, ms: 1, times: 0 } }] } });
    expect(cursor.claim('m:1')).toMatchObject({ kind: 'turn', turn: { content: 'x' } });
    expect((cursor.claim('m:1') as { kind: string }).kind).toBe('exhausted');
  });

  it('a handed-back turn is served again before later turns', () => {
    const cursor = new TurnCursor({ turns: { '*': [{ content: 't1' }, { content: 't2' }, { content: 't3' }] } });
    const first = cursor.claim('m:1');
    const second = cursor.claim('m:1');
    expect(second.kind === 'turn' && second.position).toBe(1);
    cursor.giveBack('m:1', 1);
    expect(cursor.served('m:1')).toBe(1);
    expect(contentOf(cursor.claim('m:1'))).toBe('t2');
    expect(contentOf(cursor.claim('m:1'))).toBe('t3');
    expect(first.kind).toBe('turn');
  });

  it('setScript restarts every cursor', () => {
    const cursor = new TurnCursor(script());
    cursor.claim('qwen3:8b');
    cursor.setScript({ turns: { '*': [{ content: 'fresh' }] } });
    expect(contentOf(cursor.claim('qwen3:8b'))).toBe('fresh');
  });

  it("repeats the last turn past the end when asked, as a stuck model would (a foreign profile's extra requests)", () => {
    const cursor = new TurnCursor({
      turns: { '*': [{ content: 'a' }, { content: 'b', fault: { kind: 'http', status: 503, times: 1 } }] },
      whenExhausted: 'repeat_last',
    });
    expect(
      ['x', 'x', 'x', 'x'].map((m) => cursor.claim(m)).map((c) => [contentOf(c), c.kind === 'turn' ? (c.fault?.kind ?? null) : null]),
    ).toEqual([
      ['a', null],
      ['b', 'http'],
      ['b', null],
      ['b', null],
    ]);
  });
});
