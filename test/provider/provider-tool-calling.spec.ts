// Native vs text-based tool calling and the think flag, checked on the wire: the stand-in's
// request log holds the exact /api/chat body the provider sent.
// Spec: invariants 3 (text-based tool calling for qwen3), 9 (argument normalization) and
// 10 (think:false for qwen3); behavioural example "Text-based tool calling for Qwen3";
// error case tools unsupported (ToolsUnsupportedError).
// covers: ollama-provider#invariant-3, ollama-provider#invariant-9
// covers: ollama-provider#invariant-10, direct-process#error-tool-unsupported-by-model
import type { LlmMessage } from '../../src/provider/llm-types';
import { ToolsUnsupportedError } from '../../src/provider/provider-errors';
import { StandinServer } from '../../src/standin/standin-server';
import type { StandinTurn } from '../../src/standin/standin-script';
import {
  READ_FILE,
  WRITE_FILE,
  chatRequests,
  cleanup,
  closedPort,
  eventRecorder,
  makeProvider,
  providerError,
  startStandin,
  user,
} from './provider-test-kit';

afterEach(cleanup);

interface WireMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ id?: string; function: { name: string; arguments: Record<string, unknown> } }>;
  tool_name?: string;
  tool_call_id?: string;
}
interface ChatBody {
  model: string;
  messages: WireMessage[];
  tools?: Array<{ type: string; function: { name: string } }>;
  think?: unknown;
  stream?: boolean;
  options?: Record<string, unknown>;
}

/** A conversation that already went through one tool call and its result. */
const HISTORY: LlmMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'What does a.ts say?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_prev0001', name: 'read_file', arguments: { path: 'a.ts' } }] },
  { role: 'tool', toolCallId: 'call_prev0001', toolName: 'read_file', content: 'export const a = 1;' },
];

async function run(model: string, turns: StandinTurn[], messages: LlmMessage[] = HISTORY, tools = [READ_FILE, WRITE_FILE]) {
  const { server, url } = await startStandin({ script: { turns: { [model]: turns } } });
  const { provider } = makeProvider(url);
  const events = eventRecorder();
  const result = await provider.complete({ model, messages, tools, onEvent: events.sink });
  const body = chatRequests(server)[0].body as ChatBody;
  return { result, body, events, server, provider };
}

describe('text-based tool calling for qwen3 (spec example; invariants 3, 10)', () => {
  it('sends no `tools`, think:false, tool results as <<tool_output>> user messages, and extracts the call from the text', async () => {
    const { result, body, events } = await run('qwen3:8b', [
      { content: '<think>The user wants b.ts next.</think>\n[{"name":"read_file","arguments":{"path":"b.ts"}}]' },
    ]);
    // the request
    expect(body.tools).toBeUndefined();
    expect(body.think).toBe(false);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body.messages.some((m) => m.role === 'tool' || m.tool_calls)).toBe(false);
    const toolResult = body.messages[3].content;
    expect(toolResult).toMatch(/^<<tool_output>>\n[\s\S]*export const a = 1;\n<<\/tool_output>>$/);
    expect(toolResult).toContain('read_file');
    // the model sees its own earlier call, written in the format it is told to use
    expect(body.messages[2].content).toContain('[{"name":"read_file","arguments":{"path":"a.ts"}}]');
    // the tool instructions travel in the system prompt, after the caller's own system text
    expect(body.messages[0].content.startsWith('You are a coding agent.')).toBe(true);
    expect(body.messages[0].content).toContain('read_file');
    expect(body.messages[0].content).toContain('write_file');

    // the result
    expect(result.toolCallSource).toBe('text');
    expect(result.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'read_file', arguments: { path: 'b.ts' } }]);
    expect(result.content).toBe('');
    expect(result.thinking).toBe('The user wants b.ts next.');

    expect(events.of('inference_request')).toEqual([
      expect.objectContaining({ mode: 'text', family: 'qwen3', modeReason: 'text_family', toolsSent: false, think: false, toolCount: 2 }),
    ]);
    expect(events.of('tool_calls_extracted')).toEqual([expect.objectContaining({ count: 1, names: ['read_file'], strategy: 'json' })]);
  });

  it('think:false keeps the server from streaming thinking at all (the scripted turn has some)', async () => {
    const { result, body } = await run(
      'qwen3:8b',
      [{ thinking: 'long hidden chain of thought', content: 'The answer is 4.' }],
      user('2+2?'),
      [],
    );
    expect(body.think).toBe(false);
    expect(result.content).toBe('The answer is 4.');
    expect(result.thinking).toBeUndefined();
    expect(result.toolCalls).toEqual([]);
    expect(result.toolCallSource).toBe('none');
  });

  it('deepseek-r1 (a thinking family without tool support) also gets think:false; a llama gets no think field', async () => {
    const r1 = await run('deepseek-r1:14b', [{ content: 'ok' }], user('hi'), []);
    expect(r1.body.think).toBe(false);
    const llama = await run('llama3.1:8b', [{ content: 'ok' }], user('hi'), []);
    expect('think' in llama.body).toBe(false);
  });

  it('a cloud gpt-oss with thinking gets a reasoning level (it ignores booleans) and its reasoning is recorded apart from the answer', async () => {
    const { result, body, events } = await run('gpt-oss:120b-cloud', [
      { thinking: 'Need the file first.', content: '[{"name":"read_file","arguments":{"path":"c.ts"}}]' },
    ]);
    expect(body.think).toBe('low');
    expect(body.tools).toBeUndefined(); // cloud models are text-based whatever their family
    expect(result.thinking).toBe('Need the file first.');
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', arguments: { path: 'c.ts' } })]);
    expect(result.content).toBe('');
    expect(events.of('inference_request')[0]).toMatchObject({ mode: 'text', modeReason: 'cloud', think: 'low' });
  });

  it('a plain answer without a call stays content, with no calls and no extraction event', async () => {
    const { result, events } = await run('qwen3:8b', [{ content: 'a.ts exports a constant `a` equal to 1.' }]);
    expect(result.content).toBe('a.ts exports a constant `a` equal to 1.');
    expect(result.toolCalls).toEqual([]);
    expect(result.toolCallSource).toBe('none');
    expect(events.of('tool_calls_extracted')).toEqual([]);
  });
});

describe('tool call normalization after extraction (invariant 9)', () => {
  it('maps an aliased argument key onto the schema name and reports it', async () => {
    const { result, events } = await run('qwen3:8b', [{ content: '[{"name":"read_file","arguments":{"file_path":"b.ts"}}]' }]);
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', arguments: { path: 'b.ts' } })]);
    expect(events.of('tool_args_normalized')).toEqual([expect.objectContaining({ from: 'file_path', to: 'path' })]);
  });

  it('never overwrites an existing key', async () => {
    const { result } = await run('qwen3:8b', [{ content: '[{"name":"read_file","arguments":{"path":"keep.ts","file_path":"other.ts"}}]' }]);
    expect(result.toolCalls[0].arguments.path).toBe('keep.ts');
  });

  it('repairs a hallucinated tool name onto the declared tool and reports it', async () => {
    const { result, events } = await run('qwen3:8b', [{ content: '[{"name":"readFile","arguments":{"path":"b.ts"}}]' }]);
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', arguments: { path: 'b.ts' } })]);
    expect(events.of('tool_name_repaired')).toEqual([expect.objectContaining({ from: 'readFile', to: 'read_file' })]);
  });
});

describe('native tool calling for llama', () => {
  it('sends `tools`, replays calls as tool_calls and results as role "tool" with name and id, and returns the native calls', async () => {
    const { result, body, events } = await run('llama3.1:8b', [
      { toolCalls: [{ id: 'call_next0002', name: 'write_file', arguments: { path: 'b.ts', content: 'x' } }] },
    ]);
    expect(body.tools?.map((t) => [t.type, t.function.name])).toEqual([
      ['function', 'read_file'],
      ['function', 'write_file'],
    ]);
    expect('think' in body).toBe(false);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(body.messages[0].content).toBe('You are a coding agent.'); // no text-mode instructions
    expect(body.messages[2].tool_calls).toEqual([{ id: 'call_prev0001', function: { name: 'read_file', arguments: { path: 'a.ts' } } }]);
    expect(body.messages[3]).toEqual({
      role: 'tool',
      content: 'export const a = 1;',
      tool_name: 'read_file',
      tool_call_id: 'call_prev0001',
    });

    expect(result.toolCallSource).toBe('native');
    expect(result.toolCalls).toEqual([{ id: 'call_next0002', name: 'write_file', arguments: { path: 'b.ts', content: 'x' } }]);
    expect(events.of('inference_request')[0]).toMatchObject({ mode: 'native', toolsSent: true, think: null });
    expect(events.of('tool_calls_extracted')).toEqual([]);
  });

  it('does not run the text parser on a native-mode model: JSON written as text stays text', async () => {
    const text = '[{"name":"read_file","arguments":{"path":"b.ts"}}]';
    const { result, events } = await run('llama3.1:8b', [{ content: text }]);
    expect(result.toolCalls).toEqual([]);
    expect(result.toolCallSource).toBe('none');
    expect(result.content).toBe(text);
    expect(events.of('tool_calls_extracted')).toEqual([]);
  });

  it('without tools no `tools` field is sent and nothing is extracted, whatever the family', async () => {
    const text = '[{"name":"read_file","arguments":{"path":"b.ts"}}]';
    const { result, body } = await run('qwen3:8b', [{ content: text }], user('show me a call'), []);
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([{ role: 'user', content: 'show me a call' }]);
    expect(result.content).toBe(text);
    expect(result.toolCalls).toEqual([]);
  });
});

describe('models without tool support', () => {
  it('a model whose /api/show lacks the tools capability gets text-based calling instead of a guaranteed 400', async () => {
    const { result, body, events } = await run('gemma:2b', [{ content: '[{"name":"read_file","arguments":{"path":"b.ts"}}]' }]);
    expect(body.tools).toBeUndefined();
    expect(events.of('inference_request')[0]).toMatchObject({ mode: 'text', modeReason: 'no_tools_capability' });
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file' })]);
  });

  it('capabilities are looked up again after the host was unreachable (a failed /api/show is not cached)', async () => {
    const port = await closedPort();
    const { provider } = makeProvider(`http://127.0.0.1:${port}`, { retryDelayScale: 0.001 });
    const down = await providerError(provider.complete({ model: 'gemma:2b', messages: user('x'), tools: [READ_FILE] }));
    expect(down.info.kind).toBe('connection');
    const server = new StandinServer({
      script: { turns: { 'gemma:2b': [{ content: '[{"name":"read_file","arguments":{"path":"b.ts"}}]' }] } },
    });
    await server.start(port);
    try {
      // with the "unknown capabilities" answer cached, gemma would be sent `tools` and get a 400
      const result = await provider.complete({ model: 'gemma:2b', messages: user('x'), tools: [READ_FILE] });
      expect(result.toolCallSource).toBe('text');
      expect((chatRequests(server)[0].body as ChatBody).tools).toBeUndefined();
    } finally {
      await server.stop();
    }
  });

  it('"does not support tools" from the server is a ToolsUnsupportedError and is not retried', async () => {
    const { server, url } = await startStandin({
      script: {
        turns: {
          'llama3.1:8b': [
            { content: 'x', fault: { kind: 'http', status: 400, error: 'registry.ollama.ai/library/llama3.1:8b does not support tools' } },
          ],
        },
      },
    });
    const { provider } = makeProvider(url);
    const events = eventRecorder();
    const error = await providerError(
      provider.complete({ model: 'llama3.1:8b', messages: user('x'), tools: [READ_FILE], onEvent: events.sink }),
    );
    expect(ToolsUnsupportedError.isInstance(error)).toBe(true);
    expect(error.info).toMatchObject({ kind: 'tools_unsupported', retryable: false, status: 400 });
    expect(chatRequests(server)).toHaveLength(1);
    expect(events.of('inference_retry')).toEqual([]);
  });
});
