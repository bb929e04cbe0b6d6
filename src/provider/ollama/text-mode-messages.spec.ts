import type { LlmMessage, LlmToolDefinition } from '../llm-types';
import { toNativeMessages, toOllamaTools, toTextModeMessages } from './text-mode-messages';
import { getToolInstructionPrompt } from './tool-prompt-templates';

const tools: LlmToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
  },
];

// a round trip with two parallel calls, one result without toolName, and reasoning recorded
const history: LlmMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Read a.ts and b.ts' },
  {
    role: 'assistant',
    content: '',
    thinking: 'two files',
    toolCalls: [
      { id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } },
      { id: 'call_2', name: 'read_file', arguments: { path: 'b.ts' } },
    ],
  },
  { role: 'tool', content: 'export const a = 1;', toolCallId: 'call_1', toolName: 'read_file' },
  { role: 'tool', content: 'export const b = 2;', toolCallId: 'call_2' },
  {
    role: 'assistant',
    content: 'Checking the test too.',
    toolCalls: [{ id: 'call_3', name: 'read_file', arguments: { path: 'a.spec.ts' } }],
  },
  { role: 'tool', content: 'ENOENT', toolCallId: 'call_3', toolName: 'read_file' },
  { role: 'user', content: 'Thanks' },
  { role: 'assistant', content: 'a is 1 and b is 2.' },
];

describe('toNativeMessages', () => {
  it('maps calls to tool_calls and results to tool messages with tool_name and tool_call_id', () => {
    expect(toNativeMessages(history)).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Read a.ts and b.ts' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_1', function: { name: 'read_file', arguments: { path: 'a.ts' } } },
          { id: 'call_2', function: { name: 'read_file', arguments: { path: 'b.ts' } } },
        ],
      },
      { role: 'tool', content: 'export const a = 1;', tool_name: 'read_file', tool_call_id: 'call_1' },
      { role: 'tool', content: 'export const b = 2;', tool_name: 'read_file', tool_call_id: 'call_2' },
      {
        role: 'assistant',
        content: 'Checking the test too.',
        tool_calls: [{ id: 'call_3', function: { name: 'read_file', arguments: { path: 'a.spec.ts' } } }],
      },
      { role: 'tool', content: 'ENOENT', tool_name: 'read_file', tool_call_id: 'call_3' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'a is 1 and b is 2.' },
    ]);
  });

  it.each([
    { name: 'drops reasoning by default', options: undefined, expected: { role: 'assistant', content: 'ok' } },
    {
      name: 'sends reasoning back when asked',
      options: { includeThinking: true },
      expected: { role: 'assistant', content: 'ok', thinking: 'hmm' },
    },
  ])('$name', ({ options, expected }) => {
    expect(toNativeMessages([{ role: 'assistant', content: 'ok', thinking: 'hmm' }], options)).toEqual([expected]);
  });

  it('leaves tool_name and tool_call_id out when unknown', () => {
    expect(toNativeMessages([{ role: 'tool', content: 'orphan' }])).toEqual([{ role: 'tool', content: 'orphan' }]);
  });
});

describe('toTextModeMessages', () => {
  it('replays calls as JSON-array text, returns results as delimited user turns and merges the prompt into the system message', () => {
    const prompt = getToolInstructionPrompt('qwen3', tools);
    expect(toTextModeMessages(history, tools, { family: 'qwen3' })).toEqual([
      { role: 'system', content: `You are a coding agent.\n\n${prompt}` },
      { role: 'user', content: 'Read a.ts and b.ts' },
      { role: 'assistant', content: '[{"name":"read_file","arguments":{"path":"a.ts"}},{"name":"read_file","arguments":{"path":"b.ts"}}]' },
      {
        role: 'user',
        content:
          '<<tool_output>>\ntool: read_file\nexport const a = 1;\n<</tool_output>>\n\n<<tool_output>>\ntool: read_file\nexport const b = 2;\n<</tool_output>>',
      },
      { role: 'assistant', content: 'Checking the test too.\n\n[{"name":"read_file","arguments":{"path":"a.spec.ts"}}]' },
      { role: 'user', content: '<<tool_output>>\ntool: read_file\nENOENT\n<</tool_output>>' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'a is 1 and b is 2.' },
    ]);
  });

  it.each([
    {
      name: 'prepends a system message when the history has none',
      messages: [{ role: 'user', content: 'hi' }] as LlmMessage[],
      expected: [
        { role: 'system', content: getToolInstructionPrompt('unknown', tools) },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'fills an empty system message with the prompt alone',
      messages: [
        { role: 'system', content: '  ' },
        { role: 'user', content: 'hi' },
      ] as LlmMessage[],
      expected: [
        { role: 'system', content: getToolInstructionPrompt('unknown', tools) },
        { role: 'user', content: 'hi' },
      ],
    },
    {
      name: 'merges into the first system message only',
      messages: [
        { role: 'system', content: 'one' },
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'reminder' },
      ] as LlmMessage[],
      expected: [
        { role: 'system', content: `one\n\n${getToolInstructionPrompt('unknown', tools)}` },
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'reminder' },
      ],
    },
  ])('$name', ({ messages, expected }) => {
    expect(toTextModeMessages(messages, tools)).toEqual(expected);
  });

  it('adds no prompt without tools but still renders earlier calls and results', () => {
    expect(toTextModeMessages(history.slice(1, 4), [])).toEqual([
      { role: 'user', content: 'Read a.ts and b.ts' },
      { role: 'assistant', content: '[{"name":"read_file","arguments":{"path":"a.ts"}},{"name":"read_file","arguments":{"path":"b.ts"}}]' },
      { role: 'user', content: '<<tool_output>>\ntool: read_file\nexport const a = 1;\n<</tool_output>>' },
    ]);
  });

  it('uses the compact prompt and keeps reasoning when asked', () => {
    const messages: LlmMessage[] = [{ role: 'assistant', content: 'done', thinking: 'why' }];
    expect(toTextModeMessages(messages, tools, { compact: true, includeThinking: true })).toEqual([
      { role: 'system', content: getToolInstructionPrompt('unknown', tools, { compact: true }) },
      { role: 'assistant', content: 'done', thinking: 'why' },
    ]);
  });
});

describe('toOllamaTools', () => {
  it('wraps each definition as an OpenAI-style function tool', () => {
    expect(toOllamaTools(tools)).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'Read a file.',
          parameters: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
        },
      },
    ]);
  });
});
