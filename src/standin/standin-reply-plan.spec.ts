import { aggregatePieces, chatChunk, generateChunk } from './standin-chat-wire';
import { planReply } from './standin-reply-plan';

const messages = [{ role: 'user', content: 'what is the weather' }];

describe('planReply', () => {
  it('streams thinking first, then content word by word, then tool calls whole', () => {
    const plan = planReply(
      {
        thinking: 'check it',
        content: 'Calling now',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Tokyo' } },
          { name: 'noop', arguments: {} },
        ],
      },
      { emitThinking: true, messages, newId: () => 'call_abcd1234' },
    );
    expect(plan.pieces).toEqual([
      { thinking: 'check' },
      { thinking: ' it' },
      { content: 'Calling' },
      { content: ' now' },
      {
        toolCalls: [
          { id: 'call_abcd1234', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo' } } },
          { id: 'call_abcd1234', function: { index: 1, name: 'noop', arguments: {} } },
        ],
      },
    ]);
    expect(plan.pieceTokens).toEqual([1, 1, 1, 1, 4]);
    expect(plan.promptEvalCount).toBe(4);
    expect(plan.evalCount).toBe(8);
    expect(plan.doneReason).toBe('stop');
  });

  it('drops thinking when the model does not think on this request', () => {
    const plan = planReply({ thinking: 'hidden', content: 'shown' }, { emitThinking: false, messages });
    expect(plan.pieces).toEqual([{ content: 'shown' }]);
    expect(plan.evalCount).toBe(1);
  });

  it('honours scripted ids, counts and done reason', () => {
    const plan = planReply(
      { toolCalls: [{ id: 'call_fixed001', name: 'f', arguments: {} }], promptEvalCount: 99, evalCount: 7, doneReason: 'length' },
      { emitThinking: true, messages },
    );
    expect(plan.pieces[0].toolCalls?.[0].id).toBe('call_fixed001');
    expect([plan.promptEvalCount, plan.evalCount, plan.doneReason]).toEqual([99, 7, 'length']);
  });

  it('generates fresh call_xxxxxxxx ids by default', () => {
    const plan = planReply({ toolCalls: [{ name: 'f', arguments: {} }] }, { emitThinking: false, messages });
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
