// covers: direct-process#invariant-11
import {
  CODE_TOKENS_PER_CHAR,
  MESSAGE_OVERHEAD_TOKENS,
  PROSE_TOKENS_PER_CHAR,
  codeCharRatio,
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateTokens,
  tokensPerChar,
} from './token-estimation';
import type { TranscriptMessage } from './transcript';

const prose = 'the quick brown fox jumps over the lazy dog '; // 44 chars, no code characters
const code = 'if (a[i] != b) { x = y * (z - 1); }\n'; // 36 chars, 16 code characters

describe('token estimation (spec invariant 11)', () => {
  it('estimates prose at ~0.25 tokens per char and code at ~0.33', () => {
    expect(PROSE_TOKENS_PER_CHAR).toBe(0.25);
    expect(CODE_TOKENS_PER_CHAR).toBeCloseTo(0.333, 3);
    expect(estimateTokens(prose.repeat(25))).toBe(275); // 1100 chars / 4
    expect(estimateTokens(code.repeat(25))).toBe(300); // 900 chars / 3
  });

  it.each([
    { name: 'text with no code characters is prose', ratio: 0, expected: 0.25 },
    { name: 'the blend starts at a 0.05 share (prose endpoint kept)', ratio: 0.05, expected: 0.25 },
    { name: "v1's 0.08 threshold sits inside the blend", ratio: 0.08, expected: 0.25 + (3 / 7) * (1 / 12) },
    { name: 'the blend ends at a 0.12 share (code endpoint kept)', ratio: 0.12, expected: 1 / 3 },
    { name: 'anything above 0.12 is code', ratio: 0.5, expected: 1 / 3 },
  ])('$name', ({ ratio, expected }) => {
    expect(tokensPerChar(ratio)).toBeCloseTo(expected, 10);
  });

  it('rises monotonically with the code share, so one brace never jumps the estimate', () => {
    const rates = Array.from({ length: 21 }, (_, i) => tokensPerChar(i / 100));
    for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeGreaterThanOrEqual(rates[i - 1]);
  });

  it.each([
    { name: 'counts braces, brackets, parens, operators and backticks as code', text: '{}[]();=<>|&!+-*/\\^~`', expected: 1 },
    { name: 'counts letters, digits, spaces and punctuation as prose', text: 'abc 123, .:?"\'', expected: 0 },
    { name: 'returns 0 for empty text', text: '', expected: 0 },
    { name: 'measures a share', text: 'a(b)', expected: 0.5 },
  ])('codeCharRatio $name', ({ text, expected }) => {
    expect(codeCharRatio(text)).toBe(expected);
  });

  it.each([
    { name: 'empty text costs nothing', text: '', expected: 0 },
    { name: 'rounds up', text: 'a', expected: 1 },
    { name: 'counts each non-ASCII code point as a token (CJK)', text: '日本語', expected: 3 },
    { name: 'counts an emoji (a surrogate pair) once', text: '😀', expected: 1 },
    { name: 'mixes ASCII and non-ASCII', text: 'abcd日本', expected: 3 },
  ])('estimateTokens $name', ({ text, expected }) => {
    expect(estimateTokens(text)).toBe(expected);
  });
});

describe('estimateMessageTokens', () => {
  it.each<{ name: string; message: TranscriptMessage; expected: number }>([
    {
      name: 'adds the per-message overhead to the content',
      message: { index: 0, kind: 'prompt', role: 'user', content: 'abcdefgh' },
      expected: MESSAGE_OVERHEAD_TOKENS + 2,
    },
    {
      name: 'charges an empty message its overhead',
      message: { index: 0, kind: 'assistant', role: 'assistant', content: '' },
      expected: MESSAGE_OVERHEAD_TOKENS,
    },
    {
      name: 'counts tool calls as the JSON the template renders',
      message: {
        index: 0,
        kind: 'assistant',
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }],
      },
      expected: MESSAGE_OVERHEAD_TOKENS + estimateTokens('{"name":"read_file","arguments":{"path":"a.ts"}}'),
    },
    {
      name: 'counts thinking that may be sent back',
      message: { index: 0, kind: 'assistant', role: 'assistant', content: 'abcd', thinking: 'abcdefgh' },
      expected: MESSAGE_OVERHEAD_TOKENS + 1 + 2,
    },
    {
      name: 'counts the tool name of a result',
      message: { index: 0, kind: 'tool_result', role: 'tool', content: 'abcd', toolName: 'ls' },
      expected: MESSAGE_OVERHEAD_TOKENS + 1 + 1,
    },
    {
      name: 'counts a pruned result as its placeholder',
      message: { index: 0, kind: 'tool_result', role: 'tool', content: 'x'.repeat(4000), compactedAt: 1 },
      expected: MESSAGE_OVERHEAD_TOKENS + estimateTokens('[Old tool result content cleared]'),
    },
  ])('$name', ({ message, expected }) => {
    expect(estimateMessageTokens(message)).toBe(expected);
  });

  it('sums a list of messages', () => {
    const ms: TranscriptMessage[] = [
      { index: 0, kind: 'prompt', role: 'user', content: 'abcd' },
      { index: 1, kind: 'assistant', role: 'assistant', content: 'abcdefgh' },
    ];
    expect(estimateMessagesTokens(ms)).toBe(2 * MESSAGE_OVERHEAD_TOKENS + 1 + 2);
    expect(estimateMessagesTokens([])).toBe(0);
  });

  it("estimates as each profile does: chars / 4 (opencode, dexto, the MCP agent) and gemini-cli's heuristic", () => {
    const code = '{ "a": [1, 2, 3] };'.repeat(10);
    expect(estimateTokens(code, 'chars_per_4')).toBe(Math.round(code.length / 4));
    expect(estimateTokens('héllo wörld', 'gemini')).toBe(Math.round(9 * 0.25 + 2 * 1.3));
    expect(estimateTokens('é'.repeat(100_001), 'gemini')).toBe(Math.round(100_001 / 4));
    // context-management-plan.md "Gemini-CLI Approach": non-ASCII ~1.3 tokens/char (not 1.5)
    expect(estimateTokens('日本語のテキスト'.repeat(10), 'gemini')).toBe(104);
    expect(estimateMessagesTokens([{ role: 'user', content: 'x'.repeat(400) }], 'chars_per_4')).toBe(MESSAGE_OVERHEAD_TOKENS + 100);
  });
});

describe("corvid's own estimator", () => {
  it('switches at a code share of 0.08: length / 3 above it, length / 4 below (direct-process.spec.md invariant 11)', () => {
    const prose = 'the quick brown fox jumps over the lazy dog '.repeat(10);
    expect(estimateTokens(prose, 'corvid')).toBe(Math.ceil(prose.length / 4));
    const code = 'if (a) { b(); }\n'.repeat(10);
    expect(estimateTokens(code, 'corvid')).toBe(Math.ceil(code.length / 3));
    // non-ASCII counted as characters, not at Loupe's 1 token each
    expect(estimateTokens('日本語'.repeat(40), 'corvid')).toBe(30);
    expect(estimateTokens('日本語'.repeat(40), 'corvid')).not.toBe(estimateTokens('日本語'.repeat(40), 'content_aware'));
  });
});

describe('estimate caching', () => {
  it('computes a message once per estimator and keeps estimators apart', () => {
    const m = { role: 'user' as const, content: '{"a": [1, 2, 3]}'.repeat(50) };
    const first = estimateMessageTokens(m);
    expect(estimateMessageTokens(m)).toBe(first);
    expect(estimateMessageTokens(m, 'chars_per_4')).toBe(MESSAGE_OVERHEAD_TOKENS + Math.round(m.content.length / 4));
    expect(estimateMessageTokens({ ...m })).toBe(first);
  });
});
