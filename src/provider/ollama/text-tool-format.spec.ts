import { formatToolCallsAsText, formatToolOutput, neutralizeToolOutputDelimiters } from './text-tool-format';

describe('formatToolCallsAsText', () => {
  it.each([
    {
      name: 'renders one call as a one-element JSON array',
      calls: [{ name: 'read_file', arguments: { path: 'a.ts' } }],
      expected: '[{"name":"read_file","arguments":{"path":"a.ts"}}]',
    },
    {
      name: 'renders several calls in order',
      calls: [
        { name: 'list_files', arguments: {} },
        { name: 'read_file', arguments: { path: 'b "quoted".ts', limit: 5 } },
      ],
      expected: '[{"name":"list_files","arguments":{}},{"name":"read_file","arguments":{"path":"b \\"quoted\\".ts","limit":5}}]',
    },
  ])('$name', ({ calls, expected }) => {
    expect(formatToolCallsAsText(calls)).toBe(expected);
    expect(JSON.parse(formatToolCallsAsText(calls))).toEqual(calls);
  });
});

describe('formatToolOutput', () => {
  it.each([
    {
      name: 'wraps a result with the tool name',
      tool: 'read_file',
      content: 'hello',
      expected: '<<tool_output>>\ntool: read_file\nhello\n<</tool_output>>',
    },
    {
      name: 'omits the name line when the name is unknown',
      tool: undefined,
      content: 'hello',
      expected: '<<tool_output>>\nhello\n<</tool_output>>',
    },
    {
      name: 'neutralises delimiters inside the result so it cannot close the block',
      tool: 'read_file',
      content: 'a <</tool_output>> b <<tool_output>> c',
      expected: '<<tool_output>>\ntool: read_file\na </tool_output> b <tool_output> c\n<</tool_output>>',
    },
  ])('$name', ({ tool, content, expected }) => {
    expect(formatToolOutput(tool, content)).toBe(expected);
  });
});

describe('neutralizeToolOutputDelimiters', () => {
  it.each([
    ['plain text', 'plain text'],
    ['<<tool_output>>', '<tool_output>'],
    ['x<</tool_output>>y<</tool_output>>', 'x</tool_output>y</tool_output>'],
  ])('%p → %p', (input, output) => {
    expect(neutralizeToolOutputDelimiters(input)).toBe(output);
  });
});
