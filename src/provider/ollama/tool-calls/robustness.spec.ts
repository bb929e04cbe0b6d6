// The extractor runs on every reply a model gives, including broken and hostile ones: it must
// never throw and must stay linear. Fuzzing with seeded random fragments, plus 1 MB inputs built
// to make a naive (backtracking or rescan-from-every-brace) parser quadratic.
import type { LlmToolDefinition } from '../../llm-types';
import { extractToolCallsFromContent } from './extract-tool-calls';
import { parsePythonArgs } from './calls/python-calls';
import { stripJsonToolCallArrays } from './calls/strip-json-arrays';

const TOOLS: LlmToolDefinition[] = [
  { name: 'read_file', description: '', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'set_level', description: '', parameters: { type: 'object', properties: { level: { type: 'integer' } } } },
];

/** mulberry32: a tiny seeded PRNG so a failing case can be reproduced */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  '<tool_call>',
  '</tool_call>',
  '[TOOL_CALLS]',
  '[ARGS]',
  '[/TOOL_CALLS]',
  '<|python_tag|>',
  '<function=',
  '</function>',
  '<parameter=',
  '</parameter>',
  '<invoke name="',
  '<arg_key>',
  '</arg_key>',
  '<arg_value>',
  '</arg_value>',
  '<think>',
  '</think>',
  '<|channel|>',
  '<|message|>',
  '<|end|>',
  '<|call|>',
  'to=functions.',
  '<｜tool▁call▁begin｜>',
  '<｜tool▁sep｜>',
  '<|tool_call_begin|>',
  '<|tool_call_argument_begin|>',
  '<|tool_call>',
  '<tool_call|>',
  '<|"|>',
  'call:',
  '```json\n',
  '```',
  'Action: ',
  '\nAction Input: ',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '"',
  "'",
  '\\',
  ':',
  ',',
  '=',
  '\n',
  ' ',
  'read_file',
  'set_level',
  '<｜tool_calls_begin｜>',
  '<｜tool_call_begin｜>',
  '<｜tool_sep｜>',
  '<｜tool_call_end｜>',
  'function',
  '<steptml:invoke name="',
  '<steptml:parameter name="',
  '</steptml:parameter>',
  '</steptml:invoke>',
  '<seed:think>',
  '</seed:think>',
  '<seed:tool_call>',
  '<|tools_prefix|>',
  '<|tools_suffix|>',
  '<|inner_prefix|>',
  '<|inner_suffix|>',
  '>>>',
  'all\n',
  'python\n',
  '<function name="',
  '<｜DSML｜invoke name="',
  '<｜DSML｜parameter name="',
  '<minimax:tool_call>',
  '<invoke name="',
  '<parameter name="',
  '</invoke>',
  '{"name": "read_file", "arguments": {"path": "x"}}',
  '"name"',
  '"arguments"',
  'True',
  'None',
  '42',
  '-1e9',
  '日本',
  '😀',
  '\u0000',
];

function randomText(rand: () => number): string {
  const parts: string[] = [];
  const n = 1 + Math.floor(rand() * 30);
  for (let i = 0; i < n; i++) {
    parts.push(rand() < 0.85 ? FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)] : String.fromCharCode(Math.floor(rand() * 0x3000)));
  }
  return parts.join('');
}

describe('robustness', () => {
  it('never throws and always returns well-formed results on random input', () => {
    const rand = prng(20240611);
    for (let i = 0; i < 2000; i++) {
      const input = randomText(rand);
      for (const tools of [TOOLS, undefined]) {
        let r: ReturnType<typeof extractToolCallsFromContent> | undefined;
        expect(() => (r = extractToolCallsFromContent(input, tools))).not.toThrow();
        expect(typeof r!.text).toBe('string');
        expect(r!.strategy === null || r!.strategies[0] === r!.strategy).toBe(true);
        for (const call of r!.calls) {
          expect(call.id).toMatch(/^call_[a-z0-9]{8}$/);
          expect(typeof call.name).toBe('string');
          expect(typeof call.arguments === 'object' && call.arguments !== null && !Array.isArray(call.arguments)).toBe(true);
        }
      }
      expect(() => stripJsonToolCallArrays(input)).not.toThrow();
      expect(() => parsePythonArgs(input)).not.toThrow();
    }
  });

  it('survives input that is not a string', () => {
    expect(extractToolCallsFromContent(undefined as unknown as string, TOOLS)).toEqual({
      calls: [],
      text: '',
      strategy: null,
      strategies: [],
      repairs: [],
    });
  });

  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  it.each([
    ['open objects', fill('{"name":')],
    ['open brackets', fill('[[[[')],
    ['repeated <tool_call>', fill('<tool_call>')],
    ['unterminated bodies', fill('<tool_call>{"name": "read_file", "arguments": {"path": "')],
    ['one unterminated string', '{"name": "read_file", "arguments": {"path": "' + fill('a')],
    ['Python calls never closed, one per line', fill('read_file(path="\n')],
    ['nested invalid arrays', '['.repeat(MB / 4) + '{"x": oops' + ']'.repeat(MB / 4)],
    ['XML parameters never closed', fill('<function=read_file><parameter=path>')],
    ['harmony headers', fill('<|channel|>commentary to=functions.read_file<|message|>')],
    ['line breaks', fill('\n')],
    ['inline action markers on one line', fill('✿FUNCTION✿:x ')],
    ['a call list spread over lines with text after it', `[${fill('read_file(),\n').slice(0, MB - 20)}] and more`],
    ['many valid calls', fill('{"name": "read_file", "arguments": {"path": "a.txt"}}\n')],
    [
      'Step-3 calls never closed',
      fill('<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="read_file"><steptml:parameter name="path">'),
    ],
    ['separators without call tokens', fill('function<｜tool_sep｜>')],
    ['Functionary parts', fill('>>>read_file\n{"path": ')],
    ['an Apertus list never closed', `<|tools_prefix|>[${fill('{"read_file": {"path": "a"}}, ')}`],
    ['invoke elements never closed', fill('<invoke name="read_file"><parameter name="path">')],
    ['pythonic lists mid-line never closed', fill('see [read_file(path="a", ')],
    ['a Seed-OSS think block never closed', `<seed:think>${fill('<seed:tool_call><function=read_file>')}`],
    ['GLM pairs never closed', fill('<tool_call>read_file<arg_key>path</arg_key><arg_value>')],
  ])('handles 1 MB of %s in under 2 s, with and without tools', (_label, input) => {
    for (const tools of [TOOLS, undefined]) {
      const started = performance.now();
      extractToolCallsFromContent(input, tools);
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });
});
