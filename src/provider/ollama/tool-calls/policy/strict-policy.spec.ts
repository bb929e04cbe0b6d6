import { extractToolCallsFromContent } from '../extract-tool-calls';
import { fixedIds, TOOLS } from '../extraction.test-kit';
import type { ExtractionPolicy } from '../types';

function under(policy: ExtractionPolicy | undefined, content: string) {
  const r = extractToolCallsFromContent(content, TOOLS, { policy, generateId: fixedIds() });
  return {
    calls: r.calls.map((c) => [c.name, c.arguments]),
    text: r.text,
    repairs: r.repairs.map((x) => x.kind),
    dropped: (r.dropped ?? []).map((d) => ({ name: d.name, reason: d.reason, detail: d.detail })),
    thinking: r.thinking,
  };
}

const OPEN = ['open_page', { url: 'a' }];

describe('strict and lenient extraction', () => {
  describe('what strict rejects and lenient repairs (with a record)', () => {
    it.each([
      [
        'single-quoted pseudo-JSON in a Hermes block',
        `<tool_call>{'name': 'open_page', 'arguments': {'url': 'a'}}</tool_call>`,
        /not valid JSON/,
      ],
      ['single-quoted pseudo-JSON after [TOOL_CALLS]', `[TOOL_CALLS][{'name': 'open_page', 'arguments': {'url': 'a'}}]`, /not valid JSON/],
      ['bare keys after <|python_tag|>', `<|python_tag|>{name: "open_page", parameters: {url: "a"}}`, /not valid JSON/],
      [
        'JSON a brace short of its closing tag',
        `<tool_call>{"name": "open_page", "arguments": {"url": "a"}</tool_call>`,
        /closing brackets missing/,
      ],
      [
        'ASCII look-alikes of DeepSeek special tokens',
        `<|tool▁calls▁begin|><|tool▁call▁begin|>open_page<|tool▁sep|>{"url": "a"}<|tool▁call▁end|><|tool▁calls▁end|>`,
        /look-alike of a special token: <\|tool▁call▁begin\|>/,
      ],
      ['DeepSeek tokens spelt with spaces', `<｜tool call begin｜>open_page<｜tool sep｜>{"url": "a"}<｜tool call end｜>`, /look-alike/],
      [
        'a Kimi argument-begin token in capitals',
        `<|tool_call_begin|>functions.open_page:0<|TOOL_CALL_ARGUMENT_BEGIN|>{"url": "a"}<|tool_call_end|>`,
        /look-alike/,
      ],
    ])('%s', (_label, content, detail) => {
      const lenient = under('lenient', content);
      expect(lenient.calls).toEqual([OPEN]);
      expect(lenient.repairs).toContain('call_repaired');
      const strict = under('strict', content);
      expect(strict.calls).toEqual([]);
      expect(strict.dropped).toEqual([{ name: 'open_page', reason: 'strict_rejected', detail: expect.stringMatching(detail) }]);
      // the reference parser would leave the text as content: so does strict
      expect(strict.text).not.toBe('');
    });

    it('lenient is the default', () => {
      expect(under(undefined, `<tool_call>{'name': 'open_page', 'arguments': {'url': 'a'}}</tool_call>`).calls).toEqual([OPEN]);
    });

    it('strict repairs no tool name: a near miss is an unknown tool, with the name lenient would use', () => {
      const content = `<tool_call>{"name": "Open_Page", "arguments": {"url": "a"}}</tool_call>`;
      expect(under('lenient', content)).toMatchObject({ calls: [OPEN], repairs: ['tool_name_repaired'] });
      expect(under('strict', content)).toMatchObject({
        calls: [],
        dropped: [{ name: 'Open_Page', reason: 'unknown_tool', detail: expect.stringContaining('open_page') }],
      });
    });

    it('strict renames no argument key either', () => {
      const content = `<tool_call>{"name": "open_page", "arguments": {"link": "a"}}</tool_call>`;
      expect(under('lenient', content).calls).toEqual([OPEN]);
      expect(under('strict', content).calls).toEqual([['open_page', { link: 'a' }]]);
    });

    it('one rejected call does not sink its well-formed neighbour', () => {
      const content =
        `<tool_call>{"name": "open_page", "arguments": {"url": "a"}}</tool_call>\n` +
        `<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>`;
      const strict = under('strict', content);
      expect(strict.calls).toEqual([OPEN]);
      expect(strict.dropped.map((d) => d.name)).toEqual(['ping']);
      expect(strict.text).toBe(`<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>`);
    });
  });

  describe('what strict accepts as the reference parsers do', () => {
    it.each([
      ['Hermes JSON', `<tool_call>\n{"name": "open_page", "arguments": {"url": "a"}}\n</tool_call>`],
      [
        'DeepSeek V3 tokens',
        `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>open_page<｜tool▁sep｜>{"url": "a"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
      ],
      // llama.cpp reads these spellings of the R1 section opener, and a call without its call-begin token
      [
        'an R1 section opener with spaces',
        `<｜tool calls begin｜>function<｜tool▁sep｜>open_page\n\`\`\`json\n{"url": "a"}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
      ],
      [
        'Step-3 tokens',
        `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>open_page\n{"url": "a"}<｜tool_call_end｜><｜tool_calls_end｜>`,
      ],
      [
        'Kimi K2 tokens',
        `<|tool_calls_section_begin|><|tool_call_begin|>functions.open_page:0<|tool_call_argument_begin|>{"url": "a"}<|tool_call_end|><|tool_calls_section_end|>`,
      ],
      ['Mistral', `[TOOL_CALLS]open_page[ARGS]{"url": "a"}`],
      ['a bare JSON call opening the reply (Llama 3.x JSON)', `{"name": "open_page", "parameters": {"url": "a"}}`],
      ['a whole-reply Python call list (pythonic)', `[open_page(url="a")]`],
      ['Python literals where the format is Python', `<|python_tag|>open_page(url='a')`],
    ])('%s', (_label, content) => {
      const strict = under('strict', content);
      expect(strict.calls).toEqual([OPEN]);
      expect(strict.dropped).toEqual([]);
      expect(strict.repairs).toEqual([]);
    });

    it.each([
      ['a bare JSON call after prose', `Sure. {"name": "open_page", "arguments": {"url": "a"}}`, /does not open the reply/],
      ['a Python call list inside a sentence', `Let me look: [open_page(url="a")] and then explain.`, /not the whole reply/],
      ['a tool name with JSON on the next line', `open_page\n{"url": "a"}`, /no reference parser/],
    ])('strict leaves %s as text', (_label, content, detail) => {
      expect(under('lenient', content).calls).toEqual([OPEN]);
      const strict = under('strict', content);
      expect(strict).toMatchObject({ calls: [], text: content, dropped: [{ name: 'open_page', reason: 'strict_rejected' }] });
      expect(strict.dropped[0].detail).toMatch(detail);
    });
  });

  describe('text around calls', () => {
    it.each(['lenient', 'strict'] as const)('content after a whole call stays text (%s)', (policy) => {
      expect(under(policy, `<|python_tag|>{"name": "open_page", "parameters": {"url": "a"}} Done.`)).toMatchObject({
        calls: [OPEN],
        text: 'Done.',
      });
      expect(under(policy, `<tool_call>{"name": "open_page", "arguments": {"url": "a"}}</tool_call> Now wait.`)).toMatchObject({
        calls: [OPEN],
        text: 'Now wait.',
      });
    });

    it('raw code after <|python_tag|> is still code for the python tool, not a call plus text', () => {
      const r = extractToolCallsFromContent('<|python_tag|>print(1)\nprint(2)', [
        ...TOOLS,
        { name: 'python', description: '', parameters: { type: 'object', properties: { code: { type: 'string' } } } },
      ]);
      expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['python', { code: 'print(1)\nprint(2)' }]]);
    });

    it.each(['lenient', 'strict'] as const)(
      'Qwen3: a call after an unclosed <think> is a call, the words before it reasoning (%s)',
      (policy) => {
        const r = under(policy, `<think>I need the page.\n<tool_call>\n{"name": "open_page", "arguments": {"url": "a"}}\n</tool_call>`);
        expect(r).toMatchObject({ calls: [OPEN], text: '', thinking: 'I need the page.' });
      },
    );

    it('DeepSeek R1: a call inside an unclosed <think> is reasoning, not a call', () => {
      const content = `<think>maybe <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>open_page<｜tool▁sep｜>{"url": "a"}<｜tool▁call▁end｜>`;
      for (const policy of ['lenient', 'strict'] as const) expect(under(policy, content).calls).toEqual([]);
    });

    it('a call drafted inside a closed reasoning block is never a call', () => {
      const content = `<think>I could <tool_call>{"name": "open_page", "arguments": {"url": "a"}}</tool_call></think>No need.`;
      for (const policy of ['lenient', 'strict'] as const) expect(under(policy, content)).toMatchObject({ calls: [], text: 'No need.' });
    });

    it('a bare first call without its opening token where the family allows it (Functionary v3.2)', () => {
      const r = under('strict', `open_page\n{"url": "a"}>>>ping\n{}`);
      expect(r.calls).toEqual([OPEN, ['ping', {}]]);
    });
  });

  describe('bad input', () => {
    const malformed = [
      `<tool_call>{"name": "open_page", "arguments": {"url": </tool_call>`,
      `<tool_call>{'name': 'open_page', 'arguments': {'url': 'a'</tool_call>`,
      `[TOOL_CALLS][{"name": "open_page", "arguments": {"url": "a"}`,
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>open_page<｜tool▁sep｜>{"url": `,
      `<|tool_call_begin|>functions.open_page:0<|tool_call_argument_begin|>{url: a}<|tool_call_end|>`,
      `<function=open_page><parameter=url>a</function>`,
      `[open_page(url="a"`,
      `<|channel|>commentary to=functions.open_page<|message|>{"url": "a"`,
    ];
    it.each(malformed)('never a crash, never a call with unparsed arguments, a reason for every strict refusal: %s', (content) => {
      for (const policy of ['lenient', 'strict'] as const) {
        const r = extractToolCallsFromContent(content, TOOLS, { policy });
        for (const call of r.calls) {
          expect(typeof call.arguments).toBe('object');
          for (const value of Object.values(call.arguments)) expect(typeof value === 'string' && /^[{[]/.test(value)).toBe(false);
        }
        if (policy === 'strict') for (const d of r.dropped ?? []) if (d.reason === 'strict_rejected') expect(d.detail).toBeTruthy();
        // under lenient a repaired call is recorded; under strict it is not a call
        const l = extractToolCallsFromContent(content, TOOLS, { policy: 'lenient' });
        const s = extractToolCallsFromContent(content, TOOLS, { policy: 'strict' });
        expect(s.calls.length).toBeLessThanOrEqual(l.calls.length);
      }
    });
  });
});

describe('strict across families', () => {
  it.each([
    ['Apertus short form', `<|tools_prefix|>[{'open_page': {'url': 'a'}}]<|tools_suffix|>`],
    ['Apertus short form, one element malformed', `<|tools_prefix|>[{"ping": {}}, {'open_page': {'url': 'a'}}]<|tools_suffix|>`],
    ['a harmony recipient without functions.', `<|channel|>commentary to=open_page <|constrain|>json<|message|>{"url": "a"}<|call|>`],
    ['a Hermes block whose closing tag is misspelt', `<tool_call>{"name": "open_page", "arguments": {"url": "a"}}</toolcall>`],
  ])('%s: lenient repairs, strict drops with a reason', (_label, content) => {
    const lenient = under('lenient', content);
    expect(lenient.calls).toContainEqual(OPEN);
    expect(lenient.repairs).toContain('call_repaired');
    const strict = under('strict', content);
    expect(strict.calls).not.toContainEqual(OPEN);
    expect(strict.dropped).toContainEqual({ name: 'open_page', reason: 'strict_rejected', detail: expect.any(String) });
  });
});
