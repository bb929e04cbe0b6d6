import { isLengthEmpty, replyOutcome } from './iteration-outcome';

const call = { id: 'c1', name: 'read_file', arguments: { path: 'a' } };

describe('replyOutcome (length with empty content is its own outcome)', () => {
  it.each([
    {
      name: 'length, no content, no calls',
      reply: { finishReason: 'length', content: '', toolCalls: [] },
      reaction: 'nudge',
      expected: 'length_empty',
    },
    {
      name: 'length, whitespace only',
      reply: { finishReason: 'length', content: ' \n', toolCalls: [] },
      reaction: 'final_answer',
      expected: 'length_empty',
    },
    {
      name: 'length with content',
      reply: { finishReason: 'length', content: 'partial', toolCalls: [] },
      reaction: 'final_answer',
      expected: 'final_answer',
    },
    {
      name: 'length with a tool call',
      reply: { finishReason: 'length', content: '', toolCalls: [call] },
      reaction: 'tool_calls',
      expected: 'tool_calls',
    },
    { name: 'stop with empty content', reply: { finishReason: 'stop', content: '', toolCalls: [] }, reaction: 'nudge', expected: 'nudge' },
  ] as const)('$name → $expected', ({ reply, reaction, expected }) => {
    expect(replyOutcome({ ...reply, toolCalls: [...reply.toolCalls] }, reaction)).toBe(expected);
    expect(isLengthEmpty({ ...reply, toolCalls: [...reply.toolCalls] })).toBe(expected === 'length_empty');
  });
});
