// The families that inference engines learned in 2025–26 (formats/token-pairs.ts, xtml.ts,
// minimax-m3.ts, cwm.ts, rwkv.ts, inkling.ts, and the GigaChat/ATEM/dots/DeepSeek V4 spellings of
// the invoke and wrapper formats). The engines' own literals are in test/extraction-corpus; these
// rows pin each family's shape, typing and strictness.
import { extractToolCallsFromContent } from '../extract-tool-calls';
import { checkFamilyCase, FAMILY_TOOLS, fixedIds, type FamilyCase } from '../extraction.test-kit';

const NS = ']<]minimax[>[';
const ifm = (name: string, pairs: Array<[string, string]>) =>
  `<ifm|tool_call>${name}${pairs.map(([k, v]) => `<ifm|arg_key>${k}</ifm|arg_key><ifm|arg_value>${v}</ifm|arg_value>`).join('')}</ifm|tool_call>`;
const hy = (s: string, name: string, pairs: Array<[string, string]>) =>
  `<tool_call${s}>${name}${pairs.map(([k, v]) => `<arg_key${s}>${k}</arg_key${s}><arg_value${s}>${v}</arg_value${s}>`).join('')}</tool_call${s}>`;
const solar = (name: string, pairs: Array<[string, string]>) =>
  `<|tool_call:start|>${name}\n${pairs.map(([k, v]) => `<|tool_arg:start|>${k}<|tool_arg:value|>${v}<|tool_arg:end|>\n`).join('')}<|tool_call:end|>`;
const k3 = (tool: string, args: Array<[string, string, string]>) =>
  `<|open|>call tool="${tool}" index="1"<|sep|>${args
    .map(([k, t, v]) => `<|open|>argument key="${k}" type="${t}"<|sep|>${v}<|close|>argument<|sep|>`)
    .join('')}<|close|>call<|sep|>`;
const PLAMO_CALL =
  '<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>search<|plamo:end_tool_name:plamo|>' +
  '<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{"query": "tides", "limit": 2}<|plamo:end_tool_arguments:plamo|>' +
  '<|plamo:end_tool_request:plamo|>';

describe('2025–26 families', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'K2 Horizon (IFM): pairs in a section, typed by the schema',
      `Before <ifm|tool_calls>${ifm('get_weather', [
        ['city', 'Oslo'],
        ['days', '3'],
      ])}</ifm|tool_calls> after.`,
      { calls: [['get_weather', { city: 'Oslo', days: 3 }]], text: 'Before after.' },
    ],
    [
      'K2-V3 (IFM): a JSON body, and reasoning at an effort level',
      '<ifm|think_fast>quick</ifm|think_fast><ifm|tool_call>{"name": "search", "arguments": {"query": "x", "limit": "2"}}</ifm|tool_call>',
      { calls: [['search', { query: 'x', limit: 2 }]], text: '' },
    ],
    [
      'IFM: an inline string type keeps digits as text',
      '<ifm|tool_call>search<ifm|arg_key>query</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>12345</ifm|arg_value></ifm|tool_call>',
      { calls: [['search', { query: '12345' }]] },
    ],
    [
      'Hunyuan HY-V4: tokens with a checkpoint suffix',
      `sure!<tool_calls:opensource>${hy(':opensource', 'get_weather', [
        ['city', 'Beijing'],
        ['days', '3'],
      ])}</tool_calls:opensource>`,
      { calls: [['get_weather', { city: 'Beijing', days: 3 }]], text: 'sure!' },
    ],
    [
      'Hunyuan HY-V3: <tool_sep> after the name',
      '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Hangzhou</arg_value>\n</tool_call>\n</tool_calls>',
      { calls: [['get_weather', { city: 'Hangzhou' }]], text: '' },
    ],
    [
      'Solar Open 2: name on the start line, repeated key keeps its first value',
      `Checking.${solar('search', [
        ['query', 'first'],
        ['query', 'second'],
        ['limit', '5'],
      ])}`,
      { calls: [['search', { query: 'first', limit: 5 }]], text: 'Checking.' },
    ],
    [
      'Solar Open 2: a dropped end token ends at the next call (as the reference parser recovers)',
      `<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>vLLM${solar('get_weather', [['city', 'Seoul']])}`,
      {
        calls: [
          ['search', { query: 'vLLM' }],
          ['get_weather', { city: 'Seoul' }],
        ],
      },
    ],
    [
      'PLaMo 3: JSON arguments in a request section, text after the end token goes',
      `Looking.<|plamo:begin_tool_requests:plamo|>${PLAMO_CALL}<|plamo:end_tool_requests:plamo|><|plamo:tag|>`,
      { calls: [['search', { query: 'tides', limit: 2 }]], text: 'Looking.' },
    ],
    [
      'Kimi K3 (XTML): response channel kept, typed arguments decoded',
      `<|open|>response<|sep|>On it.<|close|>response<|sep|><|open|>tools<|sep|>${k3('set_flags', [
        ['enabled', 'boolean', 'true'],
        ['options', 'object', '{"a": 1}'],
        ['tags', 'array', 'not json'],
      ])}<|close|>tools<|sep|><|close|>message<|sep|>`,
      { calls: [['set_flags', { enabled: true, options: { a: 1 }, tags: 'not json' }]], text: 'On it.' },
    ],
    [
      'Kimi K3: a think channel is reasoning',
      `<|open|>think<|sep|>maybe ${k3('search', [['query', 'string', 'draft']])}<|close|>think<|sep|>visible`,
      { calls: [], text: 'visible' },
    ],
    [
      'MiniMax M3: nested elements, repeated names and <item> lists',
      `${NS}<tool_call>\n${NS}<invoke name="set_flags">${NS}<enabled>true${NS}</enabled>${NS}<options>${NS}<mode>fast${NS}</mode>${NS}<mode>safe${NS}</mode>${NS}</options>${NS}<tags>${NS}<item>a${NS}</item>${NS}<item>b${NS}</item>${NS}</tags>${NS}</invoke>\n${NS}</tool_call>`,
      { calls: [['set_flags', { enabled: true, options: { mode: ['fast', 'safe'] }, tags: ['a', 'b'] }]], text: '' },
    ],
    [
      'DeepSeek V4: the DSML section renamed tool_calls',
      'Let me check. <｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Rome</｜DSML｜parameter>\n<｜DSML｜parameter name="days" string="false">2</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
      { calls: [['get_weather', { city: 'Rome', days: 2 }]], text: 'Let me check.' },
    ],
    [
      'GigaChat 3.5: the GCML spelling, string="false" is JSON',
      '<｜GCML｜tool_calls><｜GCML｜invoke name="set_flags"><｜GCML｜parameter name="options" string="false">{"nested": true}</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>',
      { calls: [['set_flags', { options: { nested: true } }]], text: '' },
    ],
    [
      'Muse Glimmer (ATEM): a message addressed to the tool, reasoning addressed to itself',
      ' to=self<|message|>I will look.<|eom|><|start|>assistant to=search<|message|><atem:function_calls>\n<atem:invoke name="search">\n<atem:parameter name="query">tides</atem:parameter>\n<atem:parameter name="limit">3</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>',
      { calls: [['search', { query: 'tides', limit: 3 }]], text: '' },
    ],
    [
      'dots.llm: invoke and JSON bodies in their wrapper',
      'ok<dots_function_call><invoke name="search"><parameter name="query">chairs</parameter></invoke></dots_function_call><dots_function_call>{"name":"search","arguments":{"query":"tables"}}</dots_function_call>',
      {
        calls: [
          ['search', { query: 'chairs' }],
          ['search', { query: 'tables' }],
        ],
        text: 'ok',
      },
    ],
    [
      'Code World Model: the first word names the tool, the rest is its command',
      'preamble\n<tool: function>\nexec_shell ls -la\n</tool>\n',
      {
        calls: [['exec_shell', { command: 'ls -la' }]],
        text: 'preamble',
        tools: [{ name: 'exec_shell', description: '', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
      },
    ],
    [
      'RWKV: a labelled Markdown fence',
      '**Tool Call:**\n```json\n{\n  "name": "get_weather",\n  "arguments": {"city": "Paris"}\n}\n```',
      { calls: [['get_weather', { city: 'Paris' }]], text: '' },
    ],
    [
      'Inkling: a header and its JSON payload',
      'Sure.<|message_model|>search<|content_invoke_tool_json|>{"name":"search","args":{"query":"x"}}<|end_message|>',
      { calls: [['search', { query: 'x' }]], text: 'Sure.' },
    ],
    [
      'Command A: reasoning the prompt opened, then the answer channel',
      "I'm thinking<|END_THINKING|><|START_TEXT|>Hello!<|END_TEXT|>",
      { calls: [], text: 'Hello!' },
    ],
    [
      'Magistral: a call drafted in [THINK] is not a call',
      '[THINK]maybe [TOOL_CALLS]search[ARGS]{"query":"draft"}[/THINK][TOOL_CALLS]search[ARGS]{"query":"final"}',
      { calls: [['search', { query: 'final' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});

describe('2025–26 families under strict', () => {
  const strict = (content: string) => extractToolCallsFromContent(content, FAMILY_TOOLS, { policy: 'strict', generateId: fixedIds() });
  it.each<[string, string]>([
    ['an IFM section never closed', `<ifm|tool_calls>${ifm('get_weather', [['city', 'Oslo']])}`],
    [
      'a Hunyuan call with junk after its pairs',
      `<tool_calls:x>${hy(':x', 'get_weather', [['city', 'X']]).replace('</tool_call:x>', 'JUNK</tool_call:x>')}</tool_calls:x>`,
    ],
    ['a Hunyuan call outside its section', hy(':x', 'search', [['query', 'q']])],
    ['a Solar call cut off', '<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>Seo'],
    ['a PLaMo request without its section end', `<|plamo:begin_tool_requests:plamo|>${PLAMO_CALL}`],
    ['a MiniMax M3 invoke cut off', `${NS}<tool_call>\n${NS}<invoke name="search">${NS}<query>x`],
    [
      'an Inkling header naming another tool',
      '<|message_model|>search<|content_invoke_tool_json|>{"name":"get_weather","args":{}}<|end_message|>',
    ],
  ])('%s: no call, dropped with the reason', (_label, content) => {
    const r = strict(content);
    expect(r.calls).toEqual([]);
    expect((r.dropped ?? []).map((d) => d.reason)).toEqual(['strict_rejected']);
  });

  it('lenient reads the same calls and records the repair', () => {
    const r = extractToolCallsFromContent(`<ifm|tool_calls>${ifm('get_weather', [['city', 'Oslo']])}`, FAMILY_TOOLS, {
      generateId: fixedIds(),
    });
    expect(r.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(r.repairs).toContainEqual({ kind: 'call_repaired', callIndex: 0, detail: '</ifm|tool_calls> missing around the call' });
  });
});
