import { toCompletionResult } from './completion-result';
import type { RawChatResult } from './ollama-chat-stream';

const tools = [
  {
    name: 'open_page',
    description: 'x',
    parameters: { type: 'object' as const, properties: { url: { type: 'string' } }, required: ['url'] },
  },
];

function reply(content: string, model = 'm'): RawChatResult {
  return {
    model,
    content,
    thinking: '',
    toolCalls: [],
    doneReason: 'stop',
    promptEvalCount: 1,
    evalCount: 1,
    wallMs: 1,
    chunks: 1,
    malformedLines: 0,
  };
}

function run(content: string, policy?: 'strict' | 'lenient', model?: string) {
  const events: Array<[string, Record<string, unknown>]> = [];
  const result = toCompletionResult(
    reply(content, model),
    tools,
    (type, payload) => void events.push([type, payload as Record<string, unknown>]),
    policy,
  );
  return { result, events };
}

describe('text-mode calls under an extraction policy', () => {
  const pseudo = `<tool_call>{'name': 'open_page', 'arguments': {'url': 'a'}}</tool_call>`;

  it('lenient repairs the call and journals the repair', () => {
    const { result, events } = run(pseudo);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['open_page']);
    expect(events).toContainEqual(['tool_call_repaired', { callIndex: 0, detail: expect.stringMatching(/not valid JSON/) }]);
    expect(events.map(([t]) => t)).not.toContain('tool_call_dropped');
  });

  it('strict runs nothing and journals the drop with its reason; the reply keeps its text', () => {
    const { result, events } = run(pseudo, 'strict');
    expect(result.toolCalls).toEqual([]);
    expect(result.toolCallSource).toBe('none');
    expect(result.content).toBe(pseudo);
    expect(events).toEqual([
      [
        'tool_call_dropped',
        {
          name: 'open_page',
          arguments: { url: 'a' },
          strategy: 'tool_call_tag',
          reason: 'strict_rejected',
          detail: expect.stringMatching(/not valid JSON/),
        },
      ],
    ]);
  });

  it("reads markers that families share as the model's family does", () => {
    // LFM2 writes one call object between these tokens; openPangu's parser reads only a JSON list there
    const single = '<|tool_call_start|>{"name": "open_page", "arguments": {"url": "a"}}<|tool_call_end|>';
    expect(run(single, 'strict', 'lfm2:1.2b').result.toolCalls.map((c) => c.name)).toEqual(['open_page']);
    const pangu = run(single, 'strict', 'openpangu-embedded-7b');
    expect(pangu.result.toolCalls).toEqual([]);
    expect(pangu.events).toContainEqual([
      'tool_call_dropped',
      expect.objectContaining({ name: 'open_page', reason: 'strict_rejected', detail: expect.stringMatching(/^openPangu/) }),
    ]);
  });
});
