import { MESSAGE_OVERHEAD_TOKENS, estimateTokens } from '../../context/token-estimation';
import { estimateRequestTokens } from './request-estimate';

describe('estimateRequestTokens (the body as sent)', () => {
  const tools = [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object' } } }];

  it('counts the tool schemas the template renders', () => {
    const messages = [{ role: 'user', content: 'hello there' }];
    const without = estimateRequestTokens({ messages });
    expect(without).toBe(MESSAGE_OVERHEAD_TOKENS + estimateTokens('hello there'));
    expect(estimateRequestTokens({ messages, tools })).toBe(without + estimateTokens(JSON.stringify(tools)));
  });

  it('counts tool calls, tool names and thinking as sent', () => {
    const call = { function: { name: 'read_file', arguments: { path: 'a.txt' } } };
    const body = {
      messages: [
        { role: 'assistant', content: '', thinking: 'let me look', tool_calls: [call] },
        { role: 'tool', content: 'file text', tool_name: 'read_file' },
      ],
    };
    expect(estimateRequestTokens(body)).toBe(
      2 * MESSAGE_OVERHEAD_TOKENS +
        estimateTokens('let me look') +
        estimateTokens(JSON.stringify(call)) +
        estimateTokens('file text') +
        estimateTokens('read_file'),
    );
  });

  it('uses the session estimator', () => {
    const body = { messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    expect(estimateRequestTokens(body, 'chars_per_4')).toBe(MESSAGE_OVERHEAD_TOKENS + 100);
  });
});
