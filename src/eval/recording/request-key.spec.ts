import { describeDifference, firstDifference, normalizeRequest, requestHash } from './request-key';

const request = (over: { callId?: string; workspace?: string; session?: string; prompt?: string; args?: object } = {}) => ({
  model: 'llama3.1:8b',
  stream: true,
  options: { temperature: 0, num_ctx: 8192 },
  messages: [
    { role: 'system', content: `You work in ${over.workspace ?? '/tmp/ws-1'}. Session ${over.session ?? 's-1'}.` },
    { role: 'user', content: over.prompt ?? 'Read notes.txt' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: over.callId ?? 'call_abc', function: { name: 'read_file', arguments: over.args ?? { path: 'notes.txt' } } }],
    },
    { role: 'tool', tool_name: 'read_file', tool_call_id: over.callId ?? 'call_abc', content: 'hello' },
  ],
});

describe('request keys', () => {
  it('hashes content, not serialization: key order does not matter', () => {
    const a = { model: 'm', messages: [{ role: 'user', content: 'hi' }], options: { seed: 1, temperature: 0 } };
    const b = { options: { temperature: 0, seed: 1 }, messages: [{ content: 'hi', role: 'user' }], model: 'm' };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('renames tool-call ids in order of appearance, a call and the result that refers to it alike', () => {
    expect(requestHash(request({ callId: 'call_abc' }))).toBe(requestHash(request({ callId: 'call_xyz' })));
    const n = normalizeRequest(request({ callId: 'call_xyz' })) as ReturnType<typeof request>;
    expect(n.messages[2].tool_calls![0].id).toBe('call#1');
    expect(n.messages[3].tool_call_id).toBe('call#1');
  });

  it('keeps an id that is a tool argument: it is content', () => {
    expect(requestHash(request({ args: { id: '42' } }))).not.toBe(requestHash(request({ args: { id: '43' } })));
  });

  it("takes each session's own workspace path and session id out", () => {
    const recorded = requestHash(request({ workspace: '/tmp/ws-1', session: 's-1' }), { workspaceDir: '/tmp/ws-1', sessionId: 's-1' });
    const replayed = requestHash(request({ workspace: '/tmp/ws-2', session: 's-2' }), { workspaceDir: '/tmp/ws-2', sessionId: 's-2' });
    expect(replayed).toBe(recorded);
    // without the context they are different requests
    expect(requestHash(request({ workspace: '/tmp/ws-2' }))).not.toBe(requestHash(request({ workspace: '/tmp/ws-1' })));
  });

  it('tells apart what a model would answer differently: the prompt, the model, the options', () => {
    const base = requestHash(request());
    expect(requestHash(request({ prompt: 'Read notes.md' }))).not.toBe(base);
    expect(requestHash({ ...request(), model: 'qwen3:8b' })).not.toBe(base);
    expect(requestHash({ ...request(), options: { temperature: 0.7, num_ctx: 8192 } })).not.toBe(base);
    expect(requestHash({ ...request(), tools: [] })).not.toBe(base);
  });

  it("leaves out the request's seed (the trial's: the trial index keys it already), and nothing else of its options", () => {
    const base = requestHash(request());
    expect(requestHash({ ...request(), options: { temperature: 0, num_ctx: 8192, seed: 1 } })).toBe(base);
    expect(requestHash({ ...request(), options: { temperature: 0, num_ctx: 8192, seed: 2 } })).toBe(base);
    expect(requestHash({ ...request(), options: { temperature: 0, num_ctx: 4096, seed: 1 } })).not.toBe(base);
    // a `seed` anywhere else is content
    expect(requestHash({ ...request(), seed: 1 })).not.toBe(base);
  });
});

describe('the first difference between two requests', () => {
  it('is null for equal requests', () => {
    expect(firstDifference(normalizeRequest(request()), normalizeRequest(request({ callId: 'other' })))).toBeNull();
  });

  it('names the path and shows both values from where they part', () => {
    const d = firstDifference(normalizeRequest(request()), normalizeRequest(request({ prompt: 'Read notes.md' })));
    expect(d).toEqual({ path: 'messages[1].content', recorded: 'Read notes.txt', sent: 'Read notes.md' });
    expect(describeDifference(3, d!)).toBe(
      'request 4 of the session differs from the recording at messages[1].content: recorded "Read notes.txt", sent "Read notes.md"',
    );
  });

  it('cuts long texts around the difference', () => {
    const long = 'x'.repeat(500);
    const d = firstDifference(`${long}A${long}`, `${long}B${long}`)!;
    expect(d.recorded.startsWith('…')).toBe(true);
    expect(d.recorded.endsWith('…')).toBe(true);
    expect(d.recorded).toContain('A');
    expect(d.sent).toContain('B');
    expect(d.recorded.length).toBeLessThan(200);
  });

  it('names a message present on one side only, and a field absent on one side', () => {
    const recorded = normalizeRequest(request());
    const more = normalizeRequest({ ...request(), messages: [...request().messages, { role: 'user', content: 'and more' }] });
    expect(firstDifference(recorded, more)).toEqual({
      path: 'messages[4]',
      recorded: '(absent)',
      sent: expect.stringContaining('and more'),
    });
    expect(firstDifference(recorded, normalizeRequest({ ...request(), think: true }))).toEqual({
      path: 'think',
      recorded: '(absent)',
      sent: 'true',
    });
  });
});
