import { requestHash } from './request-key';
import { TrialReplay, type RecordedTrial, type StoredExchange } from './trial-replay';

const chat = (content: string) => ({ model: 'm', stream: true, messages: [{ role: 'user', content }] });

function exchange(position: number, request: unknown, reply: string, kind: 'chat' | 'other' = 'chat', path = '/api/chat'): StoredExchange {
  return {
    upstream: 'main',
    kind,
    position,
    method: 'POST',
    path,
    request,
    requestHash: requestHash(request),
    model: 'm',
    modelDigest: 'sha256:abc',
    status: 200,
    headers: { 'content-type': 'application/x-ndjson' },
    headersAtMs: 5,
    chunks: [[10, reply]],
    ending: 'complete',
    endedAtMs: 12,
    error: null,
  };
}

function trial(trialIndex: number, exchanges: StoredExchange[]): RecordedTrial {
  return { runId: 'r', trialId: `t${trialIndex}`, scenarioId: 's', model: 'm', configKey: '', trialIndex, context: {}, exchanges };
}

const ask = (replay: TrialReplay, body: unknown, path = '/api/chat') =>
  replay.sourceFor('main').answer({ method: 'POST', path, body, rawBody: JSON.stringify(body) });

const text = (a: ReturnType<typeof ask>) => (a.kind === 'recorded' ? a.response.chunks.map(([, t]) => t).join('') : a.kind);

describe('TrialReplay', () => {
  it('serves each trial its own recorded response to the very same request (the trial is in the key)', () => {
    const first = new TrialReplay(trial(1, [exchange(0, chat('hi'), 'answer of trial 1')]), { pace: 'fast' });
    const second = new TrialReplay(trial(2, [exchange(0, chat('hi'), 'answer of trial 2')]), { pace: 'fast' });
    expect(text(ask(first, chat('hi')))).toBe('answer of trial 1');
    expect(text(ask(second, chat('hi')))).toBe('answer of trial 2');
  });

  it('serves model calls by position in the session: a repeated request gets the next recorded answer', () => {
    const replay = new TrialReplay(trial(1, [exchange(1, chat('again'), 'second'), exchange(0, chat('again'), 'first')]), { pace: 'fast' });
    expect([text(ask(replay, chat('again'))), text(ask(replay, chat('again')))]).toEqual(['first', 'second']);
    expect(replay.hits).toBe(2);
    expect(replay.misses).toEqual([]);
  });

  it('refuses a request that differs from the recorded one, naming the first difference', () => {
    const replay = new TrialReplay(trial(1, [exchange(0, chat('hi'), 'hello')]), { pace: 'fast' });
    const answer = ask(replay, chat('hello there'));
    expect(answer).toEqual({
      kind: 'refuse',
      status: 400,
      message: 'replay: request 1 of the session differs from the recording at messages[0].content: recorded "hi", sent "hello there"',
    });
    expect(replay.misses).toHaveLength(1);
  });

  it('refuses a request past the end of the recording', () => {
    const replay = new TrialReplay(trial(1, [exchange(0, chat('hi'), 'hello')]), { pace: 'fast' });
    ask(replay, chat('hi'));
    const answer = ask(replay, chat('more'));
    expect(answer.kind).toBe('refuse');
    expect(replay.misses[0].message).toBe('request 2 of the session is not in the recording (it holds 1 model requests for this trial)');
  });

  it('with --allow-new sends the miss and everything after it in the session to the real host', () => {
    const replay = new TrialReplay(trial(1, [exchange(0, chat('hi'), 'hello'), exchange(1, chat('next'), 'recorded next')]), {
      pace: 'fast',
      allowNew: { main: 'http://127.0.0.1:11434' },
    });
    expect(ask(replay, chat('changed')).kind).toBe('delegate');
    // the session has left the recording: even a request the recording holds goes on
    expect(ask(replay, chat('next')).kind).toBe('delegate');
    expect(replay.misses).toHaveLength(1);
  });

  it("answers host requests from the recorded ones; one the recording lacks is the stand-in's own", () => {
    const show = { model: 'm' };
    const replay = new TrialReplay(trial(1, [exchange(0, show, '{"details":{}}', 'other', '/api/show')]), { pace: 'fast' });
    expect(text(ask(replay, show, '/api/show'))).toBe('{"details":{}}');
    // asked again: the last recorded answer again
    expect(text(ask(replay, show, '/api/show'))).toBe('{"details":{}}');
    expect(ask(replay, { model: 'other' }, '/api/show').kind).toBe('own');
  });
});
