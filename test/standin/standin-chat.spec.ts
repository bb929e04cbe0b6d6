// /api/chat (and the minimal /api/generate): streaming, aggregation, tool calls, thinking,
// capability errors, validation, load/unload and the script cursor.
import type { ChatResponse } from 'ollama';

import { post, readLines, rejection, responseError, startStandin, stopAll, userMessage } from './standin-test-kit';

afterEach(stopAll);

const METRICS = ['total_duration', 'load_duration', 'prompt_eval_count', 'prompt_eval_duration', 'eval_count', 'eval_duration'];
const UTC_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

describe('streaming', () => {
  it('streams several content deltas and a final chunk with the six metrics', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'The sky is blue today.' }] } } });
    const chunks: ChatResponse[] = [];
    for await (const c of await client.chat({ model: 'llama3.1:8b', messages: userMessage('what colour is the sky'), stream: true })) {
      chunks.push(c);
    }
    const deltas = chunks.filter((c) => !c.done).map((c) => c.message.content);
    expect(deltas).toEqual(['The', ' sky', ' is', ' blue', ' today', '.']);
    const final = chunks[chunks.length - 1] as unknown as Record<string, unknown>;
    expect(final.done).toBe(true);
    expect(final.done_reason).toBe('stop');
    expect(final.message).toEqual({ role: 'assistant', content: '' });
    for (const key of METRICS) {
      expect(Number.isInteger(final[key])).toBe(true);
      expect(final[key]).toBeGreaterThan(0);
    }
    // BOS, <|im_start|> user \n, 5 tokens of text, <|im_end|>, <|im_start|> assistant \n (standin-prompt.ts)
    expect(final.prompt_eval_count).toBe(13);
    expect(final.eval_count).toBe(6);
    expect(final.total_duration as number).toBeGreaterThanOrEqual(final.eval_duration as number);
  });

  it('on the wire: NDJSON, stream by default, omitempty, model echoed exactly as sent', async () => {
    const { url } = await startStandin({ script: { turns: { '*': [{ content: 'a <b> & c' }] } } });
    const res = await post(url, '/api/chat', { model: 'Llama3.1:8B', messages: userMessage('hi') });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const { text, lines, objects } = await readLines(res);
    expect(text.endsWith('\n')).toBe(true);
    expect(lines.every((l) => l.length > 0)).toBe(true);
    expect(text).toContain('\\u003c'); // tokens split "<b>", so each escape is checked on its own
    expect(text).toContain('\\u003e');
    expect(text).toContain('\\u0026');
    for (const o of objects) {
      expect(o.model).toBe('Llama3.1:8B');
      expect(o.created_at).toMatch(UTC_TIME);
    }
    const deltas = objects.slice(0, -1);
    expect(deltas.length).toBeGreaterThan(1);
    for (const d of deltas) {
      expect(Object.keys(d)).toEqual(['model', 'created_at', 'message', 'done']);
      expect(Object.keys(d.message as object)).toEqual(['role', 'content']);
    }
    expect(Object.keys(objects[objects.length - 1])).toEqual(['model', 'created_at', 'message', 'done', 'done_reason', ...METRICS]);
  });

  it('stream:false aggregates into one application/json object', async () => {
    const { url, client } = await startStandin({
      script: { turns: { '*': [{ thinking: 'think hard', content: 'four words in total' }, { content: 'again' }] } },
    });
    const res = await post(url, '/api/chat', { model: 'qwen3:8b', messages: userMessage('go'), stream: false });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.message).toEqual({ role: 'assistant', content: 'four words in total', thinking: 'think hard' });
    expect(body.done).toBe(true);
    expect(body.done_reason).toBe('stop');
    expect(body.eval_count).toBe(6);
    // the client defaults to stream:false
    const viaClient = await client.chat({ model: 'qwen3:8b', messages: userMessage('go') });
    expect(viaClient.message.content).toBe('again');
  });

  it('done_reason and token counts follow the script', async () => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ content: 'cut', doneReason: 'length', promptEvalCount: 321, evalCount: 64 }] } },
    });
    const res = await client.chat({ model: 'mistral:7b', messages: userMessage('x') });
    expect([res.done_reason, res.prompt_eval_count, res.eval_count]).toEqual(['length', 321, 64]);
  });

  it('content that contains tool calls as text is streamed untouched', async () => {
    const text = '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>';
    const { client } = await startStandin({ script: { turns: { '*': [{ content: text }] } } });
    let joined = '';
    let native = 0;
    for await (const c of await client.chat({ model: 'qwen2.5:0.5b', messages: userMessage('x'), stream: true })) {
      joined += c.message.content;
      native += c.message.tool_calls?.length ?? 0;
    }
    expect(joined).toBe(text);
    expect(native).toBe(0);
  });
});

describe('native tool calls', () => {
  const toolCalls = [
    { name: 'get_weather', arguments: { city: 'Tokyo', unit: 'c' } },
    { name: 'get_time', arguments: { zone: 'JST' } },
  ];

  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];

  it('arrive one chunk per call as each parses, with function.index, call_ ids and object arguments', async () => {
    const { url } = await startStandin({ script: { turns: { '*': [{ toolCalls }] } } });
    const { lines, objects } = await readLines(await post(url, '/api/chat', { model: 'llama3.1:8b', messages: userMessage('x'), tools }));
    const withCalls = objects.filter((o) => (o.message as { tool_calls?: unknown[] }).tool_calls);
    expect(withCalls).toHaveLength(2);
    const calls = withCalls.flatMap((o) => (o.message as { tool_calls: { id: string; function: Record<string, unknown> }[] }).tool_calls);
    expect(calls.map((c) => c.function)).toEqual([
      { index: 0, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'c' } },
      { index: 1, name: 'get_time', arguments: { zone: 'JST' } },
    ]);
    for (const c of calls) {
      expect(c.id).toMatch(/^call_[a-z0-9]{8}$/);
      expect(Object.keys(c)).toEqual(['id', 'function']);
    }
    expect(lines.find((l) => l.includes('tool_calls'))).toContain('"index":0');
    expect(objects[objects.length - 1]).toMatchObject({ done: true, done_reason: 'stop' });
  });

  it('through the client, streamed and not', async () => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ toolCalls }, { content: 'x', toolCalls: [{ ...toolCalls[0], id: 'call_fixed123' }] }] } },
    });
    const seen: string[] = [];
    for await (const c of await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), tools, stream: true })) {
      for (const call of c.message.tool_calls ?? []) seen.push(call.function.name);
    }
    expect(seen).toEqual(['get_weather', 'get_time']);
    const whole = await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), tools });
    expect(whole.message.content).toBe('x');
    expect(whole.message.tool_calls).toEqual([
      { id: 'call_fixed123', function: { index: 0, name: 'get_weather', arguments: { city: 'Tokyo', unit: 'c' } } },
    ]);
  });

  it('a template model sent no tools answers the calls as its own raw text in content (qwen2, llama, mistral shapes)', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'Done.', toolCalls: [toolCalls[1]] }] }, loop: true } });
    const ask = (model: string) => client.chat({ model, messages: userMessage('summarise') });
    const qwen2 = await ask('qwen2.5:0.5b');
    expect(qwen2.message.tool_calls).toBeUndefined();
    expect(qwen2.message.content).toBe('Done.\n<tool_call>\n{"name":"get_time","arguments":{"zone":"JST"}}\n</tool_call>');
    expect((await ask('llama3.1:8b')).message.content).toBe('Done.\n{"name":"get_time","parameters":{"zone":"JST"}}');
    expect((await ask('mistral:7b')).message.content).toBe('Done.\n[TOOL_CALLS][{"name":"get_time","arguments":{"zone":"JST"}}]');
    // tools: [] is no tools (Ollama checks len(req.Tools) > 0)
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), tools: [] })).message.tool_calls).toBeUndefined();
  });

  it('built-in parsers (qwen3, gpt-oss) return native calls without tools, each in its own chunk with index 0', async () => {
    const { url } = await startStandin({ script: { turns: { '*': [{ toolCalls }] } } });
    const { objects } = await readLines(await post(url, '/api/chat', { model: 'qwen3:8b', messages: userMessage('x'), think: false }));
    const calls = objects.flatMap((o) => (o.message as { tool_calls?: { function: { index: number; name: string } }[] }).tool_calls ?? []);
    expect(calls.map((c) => [c.function.name, c.function.index])).toEqual([
      ['get_weather', 0],
      ['get_time', 0],
    ]);
  });
});

describe('thinking', () => {
  const script = { turns: { '*': [{ thinking: 'Let me count the letters', content: 'Three.' }] } };

  async function collect(client: Awaited<ReturnType<typeof startStandin>>['client'], model: string, think?: boolean) {
    const thinking: string[] = [];
    const content: string[] = [];
    for await (const c of await client.chat({
      model,
      messages: userMessage('x'),
      stream: true,
      ...(think === undefined ? {} : { think }),
    })) {
      if (c.message.thinking) thinking.push(c.message.thinking);
      if (c.message.content) content.push(c.message.content);
    }
    return { thinking, content };
  }

  it('a thinking model streams thinking deltas first by default', async () => {
    const { url, client } = await startStandin({ script: { ...script, loop: true } });
    const { thinking, content } = await collect(client, 'qwen3:8b');
    expect(thinking).toEqual(['Let', ' me', ' count', ' the', ' letters']);
    expect(content).toEqual(['Three', '.']);
    const { objects } = await readLines(await post(url, '/api/chat', { model: 'qwen3:8b', messages: userMessage('x') }));
    const firstContent = objects.findIndex((o) => (o.message as { content: string }).content !== '');
    const lastThinking = objects.map((o) => 'thinking' in (o.message as object)).lastIndexOf(true);
    expect(lastThinking).toBeLessThan(firstContent);
    expect((objects[0].message as Record<string, unknown>).content).toBe('');
  });

  it('think:false drops the thinking; eval_count counts only what is sent', async () => {
    const { client } = await startStandin({ script: { ...script, loop: true } });
    expect(await collect(client, 'deepseek-r1:14b', false)).toEqual({ thinking: [], content: ['Three', '.'] });
    const whole = await client.chat({ model: 'qwen3:8b', messages: userMessage('x'), think: false });
    expect(whole.message.thinking).toBeUndefined();
    expect(whole.eval_count).toBe(2);
  });

  it('a model without the capability never thinks, and think:false is allowed on it', async () => {
    const { client } = await startStandin({ script: { ...script, loop: true } });
    expect(await collect(client, 'llama3.1:8b')).toEqual({ thinking: [], content: ['Three', '.'] });
    expect(await collect(client, 'llama3.1:8b', false)).toEqual({ thinking: [], content: ['Three', '.'] });
  });

  it('gpt-oss always reasons, even with think:false; cloud chunks carry remote fields', async () => {
    const { url, client } = await startStandin({ script: { ...script, loop: true } });
    expect((await collect(client, 'gpt-oss:120b-cloud', false)).thinking.length).toBeGreaterThan(0);
    const { objects } = await readLines(await post(url, '/api/chat', { model: 'gpt-oss:120b-cloud', messages: userMessage('x') }));
    for (const o of objects) {
      expect(Object.keys(o).slice(0, 4)).toEqual(['model', 'remote_model', 'remote_host', 'created_at']);
      expect([o.remote_model, o.remote_host]).toEqual(['gpt-oss:120b', 'https://ollama.com:443']);
    }
  });
});

describe('capability and validation errors', () => {
  it('think:true (or a level) on a model without thinking → 400 with the quoted name', async () => {
    const { client } = await startStandin();
    for (const think of [true, 'high'] as const) {
      const err = responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), think })));
      expect(err).toEqual({ status: 400, message: '"llama3.1:8b" does not support thinking' });
    }
  });

  it('tools on a model without tools → 400 with the full name', async () => {
    const { client } = await startStandin();
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }];
    const err = responseError(await rejection(client.chat({ model: 'gemma:2b', messages: userMessage('x'), tools, stream: true })));
    expect(err).toEqual({ status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' });
  });

  it('a known option of the wrong type is a 500 (raised while scheduling); unknown options are ignored', async () => {
    const { url } = await startStandin({ script: { turns: { '*': [{ content: 'ok' }] } } });
    const bad = await post(url, '/api/chat', { model: 'qwen3:8b', messages: userMessage('x'), options: { num_ctx: '8k' } });
    expect([bad.status, await bad.json()]).toEqual([500, { error: 'option "num_ctx" must be of type integer' }]);
    const fine = await post(url, '/api/chat', {
      model: 'qwen3:8b',
      messages: userMessage('x'),
      stream: false,
      options: { f16_kv: true, num_ctx: 2048 },
    });
    expect(fine.status).toBe(200);
  });

  it('a model without completion → "does not support chat"', async () => {
    const { client } = await startStandin({
      catalog: [{ name: 'embed:1', family: 'bert', parameterSize: '0.1B', capabilities: ['embedding'] }],
    });
    expect(responseError(await rejection(client.chat({ model: 'embed:1', messages: userMessage('x') })))).toEqual({
      status: 400,
      message: '"embed:1" does not support chat',
    });
  });

  it.each([
    ['', 400, 'missing request body'],
    ['{"model":', 400, 'unexpected EOF'],
    ['nope', 400, "invalid character 'o' in literal null (expecting 'u')"],
    ['xyz', 400, "invalid character 'x' looking for beginning of value"],
    [{ messages: [] }, 400, 'model is required'],
    [{ model: 'bad name', messages: [] }, 400, 'invalid model name'],
    [{ model: 'llama9', messages: userMessage('x') }, 404, "model 'llama9' not found"],
    [
      { model: 'qwen3:8b', messages: 'hi' },
      400,
      'json: cannot unmarshal string into Go struct field ChatRequest.messages of type []api.Message',
    ],
    [{ model: 'qwen3:8b', messages: [], keep_alive: '5 minutes' }, 400, 'time: unknown unit " minutes" in duration "5 minutes"'],
    [
      { model: 'qwen3:8b', messages: [], think: 'hard' },
      400,
      'invalid think value: "hard" (must be "high", "medium", "low", "max", true, or false)',
    ],
    [{ model: 'qwen3:8b', messages: [], top_logprobs: 21 }, 400, 'top_logprobs must be between 0 and 20'],
  ])('%p → %i %p', async (body, status, message) => {
    const { url } = await startStandin();
    const res = await post(url, '/api/chat', body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ error: message });
  });
});

describe('load and unload', () => {
  it('messages: [] loads the model and answers done_reason "load" at once', async () => {
    const { url, client } = await startStandin({
      catalog: [{ name: 'slow:1', family: 'llama', parameterSize: '1B', capabilities: ['completion'], loadMs: 30 }],
    });
    const res = await post(url, '/api/chat', { model: 'slow:1', messages: [] });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['model', 'created_at', 'message', 'done', 'done_reason']);
    expect(body).toMatchObject({ model: 'slow:1', message: { role: 'assistant', content: '' }, done: true, done_reason: 'load' });
    expect((await client.ps()).models.map((m) => m.name)).toEqual(['slow:1']);
    // a missing messages field also only loads
    expect(((await (await post(url, '/api/chat', { model: 'slow:1' })).json()) as Record<string, unknown>).done_reason).toBe('load');
  });

  it('messages: [] with keep_alive 0 unloads: done_reason "unload", gone from /api/ps', async () => {
    const { url, client } = await startStandin();
    await post(url, '/api/chat', { model: 'qwen3:8b', messages: [] });
    expect((await client.ps()).models).toHaveLength(1);
    const body = (await (await post(url, '/api/chat', { model: 'qwen3:8b', messages: [], keep_alive: 0 })).json()) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ done: true, done_reason: 'unload', message: { role: 'assistant', content: '' } });
    expect((await client.ps()).models).toHaveLength(0);
  });

  it('keep_alive 0 on a real request unloads after it', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'bye' }] } } });
    await client.chat({ model: 'qwen3:8b', messages: userMessage('x'), keep_alive: 0 });
    expect((await client.ps()).models).toHaveLength(0);
  });
});

describe('script cursor', () => {
  it('serves turns per model in order; "*" gives each model its own cursor', async () => {
    const { client, server } = await startStandin({
      script: { turns: { 'qwen3:8b': [{ content: 'q-one' }, { content: 'q-two' }], '*': [{ content: 'star-one' }] } },
    });
    const ask = async (model: string) => (await client.chat({ model, messages: userMessage('x'), think: false })).message.content;
    expect(await ask('qwen3:8b')).toBe('q-one');
    expect(await ask('llama3.1:8b')).toBe('star-one');
    expect(await ask('mistral:7b')).toBe('star-one');
    expect(await ask('qwen3:8b')).toBe('q-two');
    expect(server.requests.map((r) => r.turnIndex)).toEqual([0, 0, 0, 1]);
    expect(server.served('qwen3:8b')).toBe(2);
  });

  it('an exhausted script answers 400 (never retried) saying which turn is missing', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'only' }] } } });
    await client.chat({ model: 'llama3.1:8b', messages: userMessage('x') });
    expect(responseError(await rejection(client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), stream: true })))).toEqual({
      status: 400,
      message: "stand-in script exhausted: model 'llama3.1:8b' has no turn 2 (script has 1)",
    });
  });

  it('loop restarts; setScript replaces the script and restarts the cursors', async () => {
    const { client, server } = await startStandin({ script: { turns: { '*': [{ content: 'a' }, { content: 'b' }] }, loop: true } });
    const ask = async () => (await client.chat({ model: 'mistral:7b', messages: userMessage('x') })).message.content;
    expect([await ask(), await ask(), await ask()]).toEqual(['a', 'b', 'a']);
    server.setScript({ turns: { '*': [{ content: 'new' }] } });
    expect(await ask()).toBe('new');
  });
});

describe('/api/generate (minimal)', () => {
  it('streams `response` deltas from the same script and handles prompt "" as a load', async () => {
    const { url, client } = await startStandin({ script: { turns: { '*': [{ content: 'once upon a time' }] } } });
    const parts: string[] = [];
    for await (const c of await client.generate({ model: 'gemma:2b', prompt: 'tell a story', stream: true })) parts.push(c.response ?? '');
    expect(parts.join('')).toBe('once upon a time');
    expect(parts.filter(Boolean)).toHaveLength(4);
    const load = (await (await post(url, '/api/generate', { model: 'gemma:2b', prompt: '' })).json()) as Record<string, unknown>;
    expect(load).toMatchObject({ response: '', done: true, done_reason: 'load' });
    const missing = await post(url, '/api/generate', { prompt: 'x' });
    expect([missing.status, await missing.json()]).toEqual([404, { error: "model '' not found" }]);
  });
});
