// The stand-in's request path as an Ollama server model, through the real ollama client over
// HTTP: num_predict, prompt counting from the templated prompt with silent truncation (and the
// 400 with truncate:false), tool calls only when tools are sent, the prompt cache and the
// configured version's prompt_eval_count quirks.
import type { ChatResponse, Message, Tool } from 'ollama';

import type { StandinModel } from '../../src/standin/standin-script';
import { PROMPT_TOO_LONG_ERROR } from '../../src/standin/standin-fault';
import { post, rejection, responseError, startStandin, stopAll, userMessage } from './standin-test-kit';

afterEach(stopAll);

const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
const tools: Tool[] = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file from the workspace and return its text',
      parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string', description: 'the file path' } } },
    },
  },
];

describe('num_predict', () => {
  it('stops after num_predict tokens with done_reason "length" and eval_count = num_predict', async () => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ content: 'The quick brown fox jumps over the lazy dog again and again.' }] } },
    });
    const res = await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), options: { num_predict: 1 } });
    expect([res.message.content, res.done_reason, res.eval_count]).toEqual(['The', 'length', 1]);
  });

  it('a thinking model spends the budget on thinking first: empty content with "length"', async () => {
    const { client } = await startStandin({
      script: { turns: { '*': [{ thinking: 'I should look at the question from several angles first.', content: 'Paris.' }] } },
    });
    const chunks: ChatResponse[] = [];
    for await (const c of await client.chat({
      model: 'qwen3:8b',
      messages: userMessage('capital?'),
      stream: true,
      options: { num_predict: 5 },
    })) {
      chunks.push(c);
    }
    expect(chunks.map((c) => c.message.thinking ?? '').join('')).toBe('I should look at the');
    expect(chunks.map((c) => c.message.content).join('')).toBe('');
    expect(chunks.filter((c) => !c.done)).toHaveLength(5); // one chunk per token
    const final = chunks[chunks.length - 1];
    expect([final.done_reason, final.eval_count]).toEqual(['length', 5]);
  });

  it('a native call that does not fit the budget whole is not emitted; -1 is unlimited', async () => {
    const turn = { content: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes/a-long-file-name.txt' } }] };
    const { client } = await startStandin({ script: { turns: { '*': [turn] }, loop: true } });
    const cut = await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), tools, options: { num_predict: 8 } });
    expect([cut.message.content, cut.message.tool_calls, cut.done_reason, cut.eval_count]).toEqual(['Reading.', undefined, 'length', 8]);
    const whole = await client.chat({ model: 'llama3.1:8b', messages: userMessage('x'), tools, options: { num_predict: -1 } });
    expect(whole.message.tool_calls?.map((c) => c.function.name)).toEqual(['read_file']);
    expect(whole.done_reason).toBe('stop');
  });
});

describe('prompt_eval_count from the templated prompt', () => {
  it('counts the tool schemas when tools are sent', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'ok' }] }, loop: true } });
    const plain = await client.chat({ model: 'llama3.1:8b', messages: userMessage('hello there') });
    const withTools = await client.chat({ model: 'llama3.1:8b', messages: userMessage('hello there'), tools });
    expect(withTools.prompt_eval_count - plain.prompt_eval_count).toBeGreaterThan(60);
  });

  it('silently drops the oldest non-system messages above the loaded context; the log records what went', async () => {
    const { client, server } = await startStandin({ script: { turns: { '*': [{ content: 'ok' }] } } });
    const messages: Message[] = [{ role: 'system', content: 'You are careful.' }];
    for (let i = 0; i < 10; i++) messages.push({ role: i % 2 ? 'assistant' : 'user', content: words(1000) });
    const res = await client.chat({ model: 'llama3.1:8b', messages, options: { num_ctx: 2048 } });
    expect(res.prompt_eval_count).toBeLessThanOrEqual(2048);
    expect(res.prompt_eval_count).toBeGreaterThan(1000);
    const prompt = server.requests[0].prompt!;
    expect(prompt.contextLength).toBe(2048);
    expect(prompt.fullTokens).toBeGreaterThan(10_000);
    expect(prompt.tokens).toBe(res.prompt_eval_count);
    expect(prompt.droppedMessages).toBe(8); // the system prompt and the last two messages (1004 tokens each) fit
    expect(prompt.droppedTokens).toBe(prompt.fullTokens - prompt.tokens);
    expect(prompt.rejected).toBe(false);
  });

  it("truncate:false answers 400 with Ollama's text and leaves the turn for the next request", async () => {
    const { url, server, client } = await startStandin({ script: { turns: { '*': [{ content: 'fits now' }] } } });
    const res = await post(url, '/api/chat', {
      model: 'llama3.1:8b',
      messages: userMessage(words(3000)),
      options: { num_ctx: 2048 },
      truncate: false,
    });
    expect([res.status, await res.json()]).toEqual([400, { error: PROMPT_TOO_LONG_ERROR }]);
    expect(server.requests[0].prompt?.rejected).toBe(true);
    expect((await client.chat({ model: 'llama3.1:8b', messages: userMessage('short') })).message.content).toBe('fits now');
  });

  it('a prompt cut to the context when only the last message is left (context shift)', async () => {
    const { client } = await startStandin({ script: { turns: { '*': [{ content: 'ok' }] } } });
    const res = await client.chat({ model: 'llama3.1:8b', messages: userMessage(words(5000)), options: { num_ctx: 2048 } });
    expect(res.prompt_eval_count).toBe(2048);
  });
});

describe('prompt cache and version quirks', () => {
  const turn = { content: 'ok' };
  const history = (n: number): Message[] => [
    { role: 'system', content: words(400) },
    ...Array.from({ length: n }, (_, i): Message => ({ role: i % 2 ? 'assistant' : 'user', content: `step ${i} ${words(20)}` })),
  ];

  async function twoTurns(version: string) {
    const { client, server } = await startStandin({ version, script: { turns: { '*': [turn] }, loop: true } });
    const first = await client.chat({ model: 'llama3.1:8b', messages: history(1) });
    const second = await client.chat({ model: 'llama3.1:8b', messages: history(3) });
    return { first, second, records: server.requests.map((r) => r.prompt!) };
  }

  it('the default version counts the whole prompt; the cache reuses the previous prompt of the same runner', async () => {
    const { first, second, records } = await twoTurns('0.17.5');
    expect(records[0].cachedTokens).toBe(0);
    expect(records[1].cachedTokens).toBeGreaterThan(400);
    expect(first.prompt_eval_count).toBe(records[0].tokens);
    expect(second.prompt_eval_count).toBe(records[1].tokens);
    expect('prompt_eval_cached_count' in second).toBe(false);
  });

  it('0.30.x before PR #16428 reports prompt_eval_count without the cached tokens', async () => {
    const { second, records } = await twoTurns('0.30.2');
    expect(second.prompt_eval_count).toBe(records[1].tokens - records[1].cachedTokens);
    expect(second.prompt_eval_count).toBeLessThan(100);
  });

  it('0.34 reports prompt_eval_cached_count, 0 included', async () => {
    const { first, second, records } = await twoTurns('0.34.0');
    const raw = (r: ChatResponse) => r as unknown as Record<string, unknown>;
    expect(raw(first).prompt_eval_cached_count).toBe(0);
    expect(raw(second).prompt_eval_cached_count).toBe(records[1].cachedTokens);
    expect(second.prompt_eval_count).toBe(records[1].tokens);
  });

  it('an early build omits prompt_eval_count when the whole prompt was cached', async () => {
    const { client } = await startStandin({ version: '0.1.30', script: { turns: { '*': [turn] }, loop: true } });
    await client.chat({ model: 'llama3.1:8b', messages: history(1) });
    const again = await client.chat({ model: 'llama3.1:8b', messages: history(1) });
    expect('prompt_eval_count' in again).toBe(false);
    expect(again.eval_count).toBe(1);
  });

  it("prompt_eval_duration covers the uncached tokens at the model's prefill speed", async () => {
    const model: StandinModel = {
      name: 'prefill:1',
      family: 'llama',
      parameterSize: '1B',
      capabilities: ['completion'],
      prefillTokensPerSecond: 20_000,
    };
    const { client, server } = await startStandin({ catalog: [model], script: { turns: { '*': [turn] } } });
    const res = await client.chat({ model: 'prefill:1', messages: userMessage(words(1000)) });
    const uncached = server.requests[0].prompt!.tokens;
    // a lower bound only: the pacing sleeps at least this long
    expect(res.prompt_eval_duration).toBeGreaterThanOrEqual((uncached / 20_000) * 1e9 * 0.95);
  });
});

describe('errors stay errors', () => {
  it('a model without tools still refuses tools before any counting', async () => {
    const { client } = await startStandin();
    const err = responseError(await rejection(client.chat({ model: 'gemma:2b', messages: userMessage('x'), tools })));
    expect(err.status).toBe(400);
  });
});
