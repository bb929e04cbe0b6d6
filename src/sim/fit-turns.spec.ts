import type { StoredExchange } from '../eval/recording/trial-replay';
import { recordedSteps, textModeTools } from './fit-turns';
import { shapeOf, toolFamilyOf } from './fit-shape';

let position = 0;
function exchange(request: Record<string, unknown>, lines: unknown[], extra: Partial<StoredExchange> = {}): StoredExchange {
  return {
    upstream: 'main',
    kind: 'chat',
    position: position++,
    method: 'POST',
    path: '/api/chat',
    request,
    requestHash: 'h',
    model: 'qwen3:8b',
    modelDigest: null,
    status: 200,
    headers: {},
    headersAtMs: 1,
    chunks: [[1, lines.map((l) => JSON.stringify(l)).join('\n') + '\n']],
    ending: 'complete',
    endedAtMs: 2,
    error: null,
    ...extra,
  };
}

const done = {
  done: true,
  done_reason: 'stop',
  eval_count: 20,
  eval_duration: 500_000_000,
  prompt_eval_count: 400,
  prompt_eval_duration: 400_000_000,
};
const tools = [{ type: 'function', function: { name: 'read_file' } }];
const messages = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Read a.txt.' },
];

describe('recordedSteps', () => {
  it('reads each step as it crossed the wire: native calls and text, in session order', () => {
    const steps = recordedSteps([
      exchange({ model: 'qwen3:8b', messages, tools }, [
        { message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.txt' } } }] } },
        done,
      ]),
      exchange({ model: 'qwen3:8b', messages, tools }, [
        { message: { role: 'assistant', content: 'It says ' } },
        { message: { content: 'hi.' } },
        done,
      ]),
    ]);
    expect(steps.map((s) => s.reply)).toEqual([
      { content: '', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { content: 'It says hi.', toolCalls: [] },
    ]);
    expect(steps[0]).toMatchObject({ tools: ['read_file'], native: true, messages });
  });

  it('leaves out requests without tools (compaction, epilogue), failed attempts, other models and other upstreams', () => {
    const steps = recordedSteps(
      [
        exchange({ model: 'qwen3:8b', messages }, [{ message: { content: 'summary' } }, done]),
        exchange({ model: 'qwen3:8b', messages, tools }, [{ error: 'boom' }], { status: 500 }),
        exchange({ model: 'qwen3:8b', messages, tools }, [{ message: { content: 'cut' } }], { ending: 'dropped' }),
        exchange({ model: 'llama3.1:8b', messages, tools }, [{ message: { content: 'other' } }, done], { model: 'llama3.1:8b' }),
        exchange({ model: 'qwen3:8b', messages, tools }, [{ message: { content: 'local' } }, done], { upstream: 'local' }),
        exchange({ model: 'qwen3:8b', messages, tools }, [{ message: { content: 'kept' } }, done]),
      ],
      'qwen3:8b',
    );
    expect(steps.map((s) => s.reply.content)).toEqual(['kept']);
  });

  it('takes a text-mode step’s tools from the system prompt', () => {
    const system = { role: 'system', content: 'Tools:\n## read_file\nReads.\n## write_file\n(no parameters)\nRules…' };
    expect(textModeTools([system])).toEqual(['read_file', 'write_file']);
    const steps = recordedSteps([
      exchange({ model: 'qwen3:8b', messages: [system, messages[1]] }, [{ message: { content: '[{"name":"read_file"}]' } }, done]),
    ]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ native: false, tools: ['read_file', 'write_file'] });
  });
});

describe('shapeOf', () => {
  it('takes speeds as medians of what the server reported, the family and context length from /api/show', () => {
    const show: StoredExchange = {
      ...exchange({ model: 'qwen3:8b' }, [{ details: { family: 'qwen3' }, model_info: { 'qwen3.context_length': 40960 } }]),
      kind: 'other',
      path: '/api/show',
    };
    const shape = shapeOf('qwen3:8b', [exchange({ messages, tools, options: { num_ctx: 8192 } }, [done]), show], {
      name: 'q',
      description: 'd',
      native: true,
    });
    expect(shape).toEqual({
      name: 'q',
      description: 'd',
      family: 'qwen3',
      toolCalls: 'native',
      tokensPerSecond: 40,
      prefillTokensPerSecond: 1000,
      contextLength: 40960,
    });
  });

  it('falls back to the largest num_ctx sent, and maps families to their text formats', () => {
    const shape = shapeOf('mistral:7b', [exchange({ messages, tools, options: { num_ctx: 4096 } }, [done])], {
      name: 'm',
      description: 'd',
      native: false,
    });
    expect(shape).toMatchObject({ family: 'mistral', toolCalls: 'text', contextLength: 4096 });
    expect(['llama', 'qwen2', 'devstral', 'gemma'].map(toolFamilyOf)).toEqual(['llama3', 'qwen3', 'mistral', 'hermes']);
  });
});
