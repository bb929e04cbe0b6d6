import { aggregatePieces, chatChunk, generateChunk } from './standin-chat-wire';
import { planReply, type PlanOptions } from './standin-reply-plan';

const base: PlanOptions = {
  emitThinking: true,
  prompt: { promptEvalCount: 40 },
  nativeToolCalls: true,
  builtinParser: false,
  toolFormat: 'hermes',
  newId: () => 'call_abcd1234',
};

describe('planReply', () => {
  it('streams thinking first, then content token by token, then each native call in its own chunk', () => {
    const plan = planReply(
      {
        thinking: 'check it',
        content: 'Calling now',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Tokyo' } },
          { name: 'noop', arguments: {} },
        ],
      },
      base,
    );
    expect(plan.pieces).toEqual([
      { thinking: 'check' },
      { thinking: ' it' },
      { content: 'Calling' },
      { content: ' now' },
      { toolCalls: [{ id: 'call_abcd1234', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } } }] },
      { toolCalls: [{ id: 'call_abcd1234', function: { index: 1, name: 'noop', arguments: {} } }] },
    ]);
    // a call costs the tokens of the text the model generated for it (<tool_call>\n{…}\n</tool_call>)
    expect(plan.pieceTokens.slice(0, 4)).toEqual([1, 1, 1, 1]);
    expect(plan.pieceTokens[4]).toBeGreaterThan(10);
    expect(plan.evalCount).toBe(plan.pieceTokens.reduce((a, b) => a + b, 0));
    expect(plan.promptEvalCount).toBe(40);
    expect(plan.doneReason).toBe('stop');
  });

  it('a built-in parser (qwen3, harmony) leaves every index 0', () => {
    const plan = planReply(
      {
        toolCalls: [
          { name: 'a', arguments: {} },
          { name: 'b', arguments: {} },
        ],
      },
      { ...base, builtinParser: true },
    );
    expect(plan.pieces.map((p) => p.toolCalls?.[0].function.index)).toEqual([0, 0]);
  });

  it("without native parsing the calls are the model's raw text in content, after the content", () => {
    const plan = planReply(
      { content: 'Summary follows.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { ...base, nativeToolCalls: false },
    );
    expect(plan.pieces.every((p) => p.toolCalls === undefined)).toBe(true);
    expect(aggregatePieces(plan.pieces).content).toBe(
      'Summary follows.\n<tool_call>\n{"name":"read_file","arguments":{"path":"a.txt"}}\n</tool_call>',
    );
    const llama = planReply({ toolCalls: [{ name: 'f', arguments: { x: 1 } }] }, { ...base, nativeToolCalls: false, toolFormat: 'llama' });
    expect(aggregatePieces(llama.pieces).content).toBe('{"name":"f","parameters":{"x":1}}');
    const mistral = planReply({ toolCalls: [{ name: 'f', arguments: {} }] }, { ...base, nativeToolCalls: false, toolFormat: 'mistral' });
    expect(aggregatePieces(mistral.pieces).content).toBe('[TOOL_CALLS][{"name":"f","arguments":{}}]');
  });

  it('drops thinking when the model does not think on this request', () => {
    const plan = planReply({ thinking: 'hidden', content: 'shown' }, { ...base, emitThinking: false });
    expect(plan.pieces).toEqual([{ content: 'shown' }]);
    expect(plan.evalCount).toBe(1);
  });

  describe('num_predict', () => {
    it('stops after that many tokens with "length" and eval_count = num_predict', () => {
      const plan = planReply({ content: 'one two three four five six' }, { ...base, numPredict: 3 });
      expect(aggregatePieces(plan.pieces).content).toBe('one two three');
      expect([plan.evalCount, plan.doneReason]).toEqual([3, 'length']);
    });

    it('thinking is spent first: a small budget leaves empty content with "length"', () => {
      const plan = planReply({ thinking: 'let me think about this carefully', content: 'Answer.' }, { ...base, numPredict: 4 });
      const whole = aggregatePieces(plan.pieces);
      expect(whole.thinking).toBe('let me think about');
      expect(whole.content).toBe('');
      expect([plan.evalCount, plan.doneReason]).toEqual([4, 'length']);
    });

    it('a native call that does not fit whole is not emitted', () => {
      const calls = [{ name: 'get_weather', arguments: { city: 'Tokyo' } }];
      const plan = planReply({ content: 'Checking.', toolCalls: calls }, { ...base, numPredict: 6 });
      expect(plan.pieces.some((p) => p.toolCalls)).toBe(false);
      expect([plan.evalCount, plan.doneReason]).toEqual([6, 'length']);
      const roomy = planReply({ content: 'Checking.', toolCalls: calls }, { ...base, numPredict: 1000 });
      expect(roomy.pieces.some((p) => p.toolCalls)).toBe(true);
      expect(roomy.doneReason).toBe('stop');
    });

    it('reaching the limit exactly is "length" (no room for the end-of-turn token); -1, -2 and 0 are unlimited', () => {
      expect(planReply({ content: 'a b c' }, { ...base, numPredict: 3 }).doneReason).toBe('length');
      for (const numPredict of [-1, -2, 0, undefined]) {
        const plan = planReply({ content: 'a b c' }, { ...base, numPredict });
        expect([plan.evalCount, plan.doneReason]).toEqual([3, 'stop']);
      }
    });

    it('pins win over the budget for the reported figures', () => {
      const plan = planReply({ content: 'a b c d', evalCount: 99, doneReason: 'stop' }, { ...base, numPredict: 2 });
      expect(aggregatePieces(plan.pieces).content).toBe('a b');
      expect([plan.evalCount, plan.doneReason]).toEqual([99, 'stop']);
    });
  });

  it('honours scripted ids, counts and done reason; the cached count never exceeds a pinned prompt count', () => {
    const plan = planReply(
      { toolCalls: [{ id: 'call_fixed001', name: 'f', arguments: {} }], promptEvalCount: 99, evalCount: 7, doneReason: 'length' },
      { ...base, prompt: { promptEvalCount: 500, promptEvalCachedCount: 450 } },
    );
    expect(plan.pieces[0].toolCalls?.[0].id).toBe('call_fixed001');
    expect([plan.promptEvalCount, plan.promptEvalCachedCount, plan.evalCount, plan.doneReason]).toEqual([99, 99, 7, 'length']);
  });

  it('generates fresh call_xxxxxxxx ids by default', () => {
    const plan = planReply({ toolCalls: [{ name: 'f', arguments: {} }] }, { ...base, newId: undefined });
    expect(plan.pieces[0].toolCalls?.[0].id).toMatch(/^call_[a-z0-9]{8}$/);
  });
});

describe('chat wire objects', () => {
  const metrics = { totalDurationNs: 5, loadDurationNs: 0, promptEvalCount: 3, promptEvalDurationNs: 2, evalCount: 1, evalDurationNs: 1 };

  it('omits empty fields, keeps role/content, orders keys like Go', () => {
    expect(JSON.stringify(chatChunk({ model: 'm', createdAt: 't', piece: {}, done: false }))).toBe(
      '{"model":"m","created_at":"t","message":{"role":"assistant","content":""},"done":false}',
    );
    const final = chatChunk({ model: 'm', createdAt: 't', piece: {}, done: true, doneReason: 'stop', metrics });
    expect(Object.keys(final)).toEqual([
      'model',
      'created_at',
      'message',
      'done',
      'done_reason',
      'total_duration',
      'prompt_eval_count',
      'prompt_eval_duration',
      'eval_count',
      'eval_duration',
    ]);
  });

  it('prompt_eval_cached_count follows prompt_eval_count and is kept at 0; a 0 prompt_eval_count is left out', () => {
    const cached = chatChunk({ model: 'm', createdAt: 't', piece: {}, done: true, metrics: { ...metrics, promptEvalCachedCount: 0 } });
    expect(Object.keys(cached).slice(5, 8)).toEqual(['prompt_eval_count', 'prompt_eval_cached_count', 'prompt_eval_duration']);
    expect(cached.prompt_eval_cached_count).toBe(0);
    const early = chatChunk({ model: 'm', createdAt: 't', piece: {}, done: true, metrics: { ...metrics, promptEvalCount: 0 } });
    expect('prompt_eval_count' in early).toBe(false);
  });

  it('tool calls keep index 0 and sorted argument keys', () => {
    const chunk = chatChunk({
      model: 'm',
      createdAt: 't',
      done: false,
      piece: { toolCalls: [{ id: 'call_x', function: { index: 0, name: 'f', arguments: { b: 1, a: 2 } } }] },
    });
    expect(JSON.stringify(chunk.message)).toBe(
      '{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"index":0,"name":"f","arguments":{"a":2,"b":1}}}]}',
    );
  });

  it('cloud chunks carry remote_model and remote_host after model', () => {
    const chunk = chatChunk({
      model: 'g:1-cloud',
      createdAt: 't',
      piece: {},
      done: false,
      remote: { remoteModel: 'g:1', remoteHost: 'https://ollama.com:443' },
    });
    expect(Object.keys(chunk).slice(0, 4)).toEqual(['model', 'remote_model', 'remote_host', 'created_at']);
  });

  it('generate chunks use response/thinking at top level', () => {
    expect(JSON.stringify(generateChunk({ model: 'm', createdAt: 't', piece: { content: 'hi', thinking: 'hm' }, done: false }))).toBe(
      '{"model":"m","created_at":"t","response":"hi","thinking":"hm","done":false}',
    );
  });

  it('aggregation joins text and gathers tool calls', () => {
    const call = { function: { index: 0, name: 'f', arguments: {} } };
    expect(aggregatePieces([{ thinking: 'a' }, { thinking: ' b' }, { content: 'c' }, { toolCalls: [call] }])).toEqual({
      content: 'c',
      thinking: 'a b',
      toolCalls: [call],
    });
    expect(aggregatePieces([])).toEqual({ content: '', thinking: undefined, toolCalls: undefined });
  });
});
