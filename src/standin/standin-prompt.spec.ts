import { MESSAGE_OVERHEAD_TOKENS, PROMPT_OVERHEAD_TOKENS, TOOLS_PREAMBLE, fitPrompt, renderPrompt } from './standin-prompt';
import { countTokens } from './standin-tokenizer';

const open = { truncate: true, shift: true };
const words = (n: number, w = 'word') => Array.from({ length: n }, () => w).join(' ');

describe('renderPrompt: the templated prompt', () => {
  it('counts every message with its template overhead, plus the fixed prompt overhead', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'weather in Tokyo?' },
      {
        role: 'assistant',
        content: '',
        thinking: 'use the tool',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Tokyo' } } }],
      },
      { role: 'tool', content: '11 degrees', images: ['aGVsbG8='] },
    ];
    const fitted = fitPrompt(renderPrompt({ kind: 'chat', messages }), 100_000, open);
    const text =
      countTokens('You are terse.') +
      countTokens('weather in Tokyo?') +
      countTokens('use the tool') +
      countTokens('{"name":"get_weather","arguments":{"city":"Tokyo"}}') +
      countTokens('11 degrees');
    expect(fitted.tokens.length).toBe(PROMPT_OVERHEAD_TOKENS + 4 * MESSAGE_OVERHEAD_TOKENS + text);
    expect(fitted).toMatchObject({ fullTokens: fitted.tokens.length, droppedMessages: 0, droppedTokens: 0, tooLong: false });
  });

  it('sent tools add their rendered schemas and the template instructions', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    const tools = [
      { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: {} } } },
    ];
    const without = renderPrompt({ kind: 'chat', messages });
    const withTools = renderPrompt({ kind: 'chat', messages, tools });
    const added = fitPrompt(withTools, 1e6, open).tokens.length - fitPrompt(without, 1e6, open).tokens.length;
    expect(added).toBe(MESSAGE_OVERHEAD_TOKENS + countTokens(TOOLS_PREAMBLE) + 1 + countTokens(JSON.stringify(tools[0])));
    // an empty list is no tools (Ollama checks len(req.Tools) > 0)
    expect(renderPrompt({ kind: 'chat', messages, tools: [] })).toEqual(without);
  });

  it('generate: system and prompt are the two messages', () => {
    const p = fitPrompt(renderPrompt({ kind: 'generate', system: 'Be brief.', prompt: 'tell a story' }), 1e6, open);
    expect(p.tokens.length).toBe(
      PROMPT_OVERHEAD_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + countTokens('Be brief.') + countTokens('tell a story'),
    );
  });
});

describe('fitPrompt: silent truncation (server/prompt.go chatPrompt)', () => {
  const system = { role: 'system', content: 'You are a careful assistant.' };
  const history = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i} ${words(50)}` }));

  it('drops the oldest non-system messages until it fits, keeping system messages and the last message', () => {
    const messages = [system, ...history(9)];
    const full = fitPrompt(renderPrompt({ kind: 'chat', messages }), 1e6, open).tokens.length;
    const fitted = fitPrompt(renderPrompt({ kind: 'chat', messages }), 300, open);
    expect(fitted.tokens.length).toBeLessThanOrEqual(300);
    expect(fitted.fullTokens).toBe(full);
    expect(fitted.droppedMessages).toBeGreaterThan(0);
    expect(fitted.droppedTokens).toBe(full - fitted.tokens.length);
    expect(fitted.tooLong).toBe(false);
    // the system prompt survives: the kept prompt still starts with it
    expect(fitted.tokens.join('')).toContain('You are a careful assistant.');
    expect(fitted.tokens.join('')).toContain('8 word');
    expect(fitted.tokens.join('')).not.toContain('0 word');
  });

  it('never orphans a tool result from the assistant call before it', () => {
    const messages = [
      { role: 'user', content: words(200) },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: {} } }] },
      { role: 'tool', content: words(20, 'result') },
    ];
    const rendered = renderPrompt({ kind: 'chat', messages });
    const fitted = fitPrompt(rendered, 60, open);
    expect(fitted.droppedMessages).toBe(1);
    expect(fitted.tokens.join('')).toContain('"name":"f"');
  });

  it('still too long with only the last message: a context shift keeps the first tokens and the newest ones', () => {
    const fitted = fitPrompt(renderPrompt({ kind: 'chat', messages: [{ role: 'user', content: words(500) }] }), 128, open);
    expect(fitted.tooLong).toBe(true);
    expect(fitted.tokens.length).toBe(128);
  });

  it('truncate:false keeps everything and reports it too long; shift:false cannot cut the last message', () => {
    const messages = [system, ...history(9)];
    const strict = fitPrompt(renderPrompt({ kind: 'chat', messages }), 300, { truncate: false, shift: true });
    expect([strict.tooLong, strict.droppedMessages, strict.tokens.length]).toEqual([true, 0, strict.fullTokens]);
    const noShift = fitPrompt(renderPrompt({ kind: 'chat', messages: [{ role: 'user', content: words(500) }] }), 128, {
      truncate: true,
      shift: false,
    });
    expect(noShift.tooLong).toBe(true);
    expect(noShift.tokens.length).toBeGreaterThan(128);
  });

  it('a prompt that fits exactly is kept whole (ctxLen <= num_ctx)', () => {
    const messages = [system, ...history(3)];
    const size = fitPrompt(renderPrompt({ kind: 'chat', messages }), 1e6, open).tokens.length;
    expect(fitPrompt(renderPrompt({ kind: 'chat', messages }), size, open).droppedMessages).toBe(0);
    expect(fitPrompt(renderPrompt({ kind: 'chat', messages }), size - 1, open).droppedMessages).toBe(1);
  });
});
