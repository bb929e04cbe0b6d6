import type { LlmToolDefinition } from '../../llm-types';
import { extractToolCallsFromContent } from './extract-tool-calls';
import type { ExtractionStrategy } from './types';

const tool = (name: string, properties: Record<string, { type: string }> = {}, required: string[] = []): LlmToolDefinition => ({
  name,
  description: `test tool ${name}`,
  parameters: { type: 'object', properties, required },
});

const TOOLS: LlmToolDefinition[] = [
  tool('open_page', { url: { type: 'string' } }, ['url']),
  tool('save_note', { title: { type: 'string' }, content: { type: 'string' } }, ['title', 'content']),
  tool('exec_shell', { command: { type: 'string' }, timeout: { type: 'integer' } }, ['command']),
  tool('lookup_stock', { ticker: { type: 'string' }, days: { type: 'integer' } }, ['ticker']),
  tool('ping'),
];

const fixedIds = () => {
  let n = 0;
  return () => `call_test${String(n++).padStart(4, '0')}`;
};

type Expected = { calls: Array<[string, Record<string, unknown>]>; text: string; strategies: ExtractionStrategy[] };

function run(content: string, tools: LlmToolDefinition[] | undefined = TOOLS) {
  const r = extractToolCallsFromContent(content, tools, { generateId: fixedIds() });
  return { calls: r.calls.map((c) => [c.name, c.arguments] as [string, Record<string, unknown>]), text: r.text, strategies: r.strategies, full: r };
}

function check(content: string, expected: Expected, tools?: LlmToolDefinition[]) {
  const got = run(content, tools);
  expect({ calls: got.calls, text: got.text, strategies: got.strategies }).toEqual(expected);
}

describe('extractToolCallsFromContent: explicit-marker formats', () => {
  it.each<[string, string, Expected]>([
    [
      'Hermes <tool_call> with prose before and after',
      'Checking AAPL now. <tool_call>\n{"name": "lookup_stock", "arguments": {"ticker": "AAPL"}}\n</tool_call> Back soon.',
      { calls: [['lookup_stock', { ticker: 'AAPL' }]], text: 'Checking AAPL now. Back soon.', strategies: ['tool_call_tag'] },
    ],
    [
      '<tool_call> holding an array of calls',
      '<tool_call>[{"name": "ping", "arguments": {}}, {"name": "open_page", "arguments": {"url": "https://a.example"}}]</tool_call>',
      { calls: [['ping', {}], ['open_page', { url: 'https://a.example' }]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'two <tool_call> blocks, the last one never closed',
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call>\n<tool_call>{"name": "lookup_stock", "arguments": {"ticker": "MSFT"}}',
      { calls: [['ping', {}], ['lookup_stock', { ticker: 'MSFT' }]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'arguments given as a JSON string, name after arguments',
      '<tool_call>{"arguments": "{\\"ticker\\": \\"NVDA\\"}", "name": "lookup_stock"}</tool_call>',
      { calls: [['lookup_stock', { ticker: 'NVDA' }]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'Mistral [TOOL_CALLS] array closed by [/TOOL_CALLS]',
      '[TOOL_CALLS] [{"name": "open_page", "arguments": {"url": "https://b.example"}}][/TOOL_CALLS]',
      { calls: [['open_page', { url: 'https://b.example' }]], text: '', strategies: ['mistral'] },
    ],
    [
      'Mistral name[ARGS] form followed by prose',
      'Sure. [TOOL_CALLS]exec_shell[ARGS]{"command": "echo \\"{}\\""}that ran',
      { calls: [['exec_shell', { command: 'echo "{}"' }]], text: 'Sure. that ran', strategies: ['mistral'] },
    ],
    [
      'Mistral [CALL_ID] variant, two markers in a row',
      '[TOOL_CALLS]ping[CALL_ID]x9y8z7w6v[ARGS]{}[TOOL_CALLS]lookup_stock[ARGS]{"ticker": "IBM"}',
      { calls: [['ping', {}], ['lookup_stock', { ticker: 'IBM' }]], text: '', strategies: ['mistral'] },
    ],
    [
      'Llama <|python_tag|> with Python-style arguments',
      '<|python_tag|>lookup_stock(ticker="TSLA", days=5)<|eom_id|>',
      { calls: [['lookup_stock', { ticker: 'TSLA', days: 5 }]], text: '', strategies: ['python_tag'] },
    ],
    [
      'Llama <|python_tag|> with a JSON body using "parameters"',
      '<|python_tag|>{"name": "open_page", "parameters": {"url": "https://c.example"}}',
      { calls: [['open_page', { url: 'https://c.example' }]], text: '', strategies: ['python_tag'] },
    ],
    [
      '<function=name> with a JSON body',
      'One moment.<function=lookup_stock>{"ticker": "AMD"}</function>',
      { calls: [['lookup_stock', { ticker: 'AMD' }]], text: 'One moment.', strategies: ['xml_function'] },
    ],
    [
      'Qwen3-Coder XML parameters inside <tool_call>, value with < and > kept',
      '<tool_call>\n<function=exec_shell>\n<parameter=command>\ntest 3 -lt 4 && echo "<ok>"\n</parameter>\n</function>\n</tool_call>',
      { calls: [['exec_shell', { command: 'test 3 -lt 4 && echo "<ok>"' }]], text: '', strategies: ['xml_function'] },
    ],
    [
      'XML parameter value that is an integer in the schema',
      '<function=lookup_stock>\n<parameter=ticker>\nORCL\n</parameter>\n<parameter=days>\n30\n</parameter>\n</function>',
      { calls: [['lookup_stock', { ticker: 'ORCL', days: 30 }]], text: '', strategies: ['xml_function'] },
    ],
    [
      '<invoke name=…> wrapped in MiniMax tags',
      '<minimax:tool_call>\n<invoke name="save_note">\n<parameter name="title">todo</parameter>\n<parameter name="content">buy milk</parameter>\n</invoke>\n</minimax:tool_call>',
      { calls: [['save_note', { title: 'todo', content: 'buy milk' }]], text: '', strategies: ['xml_invoke'] },
    ],
    [
      'GLM arg_key/arg_value pairs',
      '<tool_call>save_note\n<arg_key>title</arg_key>\n<arg_value>plan</arg_value>\n<arg_key>content</arg_key>\n<arg_value>step one</arg_value>\n</tool_call>',
      { calls: [['save_note', { title: 'plan', content: 'step one' }]], text: '', strategies: ['arg_key_value'] },
    ],
    [
      'DeepSeek R1 tokens with a fenced JSON body',
      'Let me see.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>lookup_stock\n```json\n{"ticker": "SAP"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      { calls: [['lookup_stock', { ticker: 'SAP' }]], text: 'Let me see.', strategies: ['deepseek'] },
    ],
    [
      'DeepSeek V3.1 tokens with ASCII bars, two calls',
      '<|tool▁calls▁begin|><|tool▁call▁begin|>ping<|tool▁sep|>{}<|tool▁call▁end|><|tool▁call▁begin|>open_page<|tool▁sep|>{"url": "https://d.example"}<|tool▁call▁end|><|tool▁calls▁end|>',
      { calls: [['ping', {}], ['open_page', { url: 'https://d.example' }]], text: '', strategies: ['deepseek'] },
    ],
    [
      'Kimi K2 section with functions.name:index',
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.lookup_stock:0<|tool_call_argument_begin|>{"ticker": "SONY"}<|tool_call_end|><|tool_calls_section_end|>',
      { calls: [['lookup_stock', { ticker: 'SONY' }]], text: '', strategies: ['kimi'] },
    ],
    [
      'gpt-oss harmony call followed by a final message',
      '<|start|>assistant to=functions.open_page<|channel|>commentary json<|message|>{"url": "https://e.example"}<|call|><|start|>assistant<|channel|>final<|message|>Opened it.<|return|>',
      { calls: [['open_page', { url: 'https://e.example' }]], text: 'Opened it.', strategies: ['harmony'] },
    ],
    [
      'Gemma 4 delimiter-quoted strings, nested object and number',
      '<|tool_call>call:save_note{title:<|"|>a "quoted" title<|"|>,content:<|"|>x<|"|>}<tool_call|>',
      { calls: [['save_note', { title: 'a "quoted" title', content: 'x' }]], text: '', strategies: ['gemma'] },
    ],
    [
      'FunctionGemma escape-quoted strings between two bits of prose',
      'Before <start_function_call>call:lookup_stock{ticker:<escape>BMW<escape>,days:2}<end_function_call> after',
      { calls: [['lookup_stock', { ticker: 'BMW', days: 2 }]], text: 'Before after', strategies: ['gemma'] },
    ],
    [
      'LFM2 pythonic list between special tokens',
      'Pinging.<|tool_call_start|>[ping(), lookup_stock(ticker=\'VW\')]<|tool_call_end|>',
      { calls: [['ping', {}], ['lookup_stock', { ticker: 'VW' }]], text: 'Pinging.', strategies: ['pythonic'] },
    ],
    [
      'Olmo 3 <function_calls> with one call per line',
      '<function_calls>ping()\nopen_page(url="https://f.example")</function_calls>',
      { calls: [['ping', {}], ['open_page', { url: 'https://f.example' }]], text: '', strategies: ['pythonic'] },
    ],
    [
      'Gemma 3 tool_code fence with print()',
      '```tool_code\nprint(default_api.lookup_stock(ticker="KO"))\n```',
      { calls: [['lookup_stock', { ticker: 'KO' }]], text: '', strategies: ['pythonic'] },
    ],
    [
      'ReAct Action / Action Input with JSON input',
      'Thought: I need the page.\nAction: open_page\nAction Input: {"url": "https://g.example"}',
      { calls: [['open_page', { url: 'https://g.example' }]], text: 'Thought: I need the page.', strategies: ['react'] },
    ],
    [
      'a call tag written inside a JSON string of the call',
      '<tool_call>{"name": "save_note", "arguments": {"title": "howto", "content": "wrap calls in <tool_call>…</tool_call>"}}</tool_call>',
      { calls: [['save_note', { title: 'howto', content: 'wrap calls in <tool_call>…</tool_call>' }]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'Nemotron <TOOLCALL> list',
      '<TOOLCALL>[{"name": "ping", "arguments": {}}]</TOOLCALL>',
      { calls: [['ping', {}]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'ReAct labels in markdown bold',
      '**Action:** ping\n**Action Input:** {}',
      { calls: [['ping', {}]], text: '', strategies: ['react'] },
    ],
    [
      'ReAct plain-text input goes to the single parameter',
      'Action: open_page\nAction Input: https://h.example\nObservation: (pending)',
      { calls: [['open_page', { url: 'https://h.example' }]], text: 'Observation: (pending)', strategies: ['react'] },
    ],
  ])('%s', (_label, content, expected) => check(content, expected));
});

describe('extractToolCallsFromContent: loose formats need a declared tool', () => {
  it.each<[string, string, Expected]>([
    [
      'bare JSON object after prose',
      'I will save it.\n{"name": "save_note", "arguments": {"title": "t", "content": "c"}}',
      { calls: [['save_note', { title: 't', content: 'c' }]], text: 'I will save it.', strategies: ['json'] },
    ],
    [
      'two JSON objects in a row',
      '{"name": "ping", "arguments": {}}\n{"name": "lookup_stock", "parameters": {"ticker": "GE"}}',
      { calls: [['ping', {}], ['lookup_stock', { ticker: 'GE' }]], text: '', strategies: ['json'] },
    ],
    [
      'OpenAI-style {"type":"function","function":{…}} wrapper',
      '{"type": "function", "function": {"name": "ping", "arguments": "{}"}}',
      { calls: [['ping', {}]], text: '', strategies: ['json'] },
    ],
    [
      'JSON array in a fenced block with prose around it',
      'Here you go:\n```json\n[{"name": "open_page", "arguments": {"url": "https://i.example"}}]\n```\nDone.',
      { calls: [['open_page', { url: 'https://i.example' }]], text: 'Here you go:\nDone.', strategies: ['fenced_json'] },
    ],
    [
      'a list cut off after its last whole element',
      '[{"name": "lookup_stock", "arguments": {"ticker": "HP"}}',
      { calls: [['lookup_stock', { ticker: 'HP' }]], text: '', strategies: ['json'] },
    ],
    [
      'an extra closing bracket after the list',
      '[{"name": "ping", "arguments": {}}]]',
      { calls: [['ping', {}]], text: '', strategies: ['json'] },
    ],
    [
      'brackets and quotes inside JSON strings',
      'Run: {"name": "exec_shell", "arguments": {"command": "printf \\"]}[{\\" > x"}} then wait',
      { calls: [['exec_shell', { command: 'printf "]}[{" > x' }]], text: 'Run: then wait', strategies: ['json'] },
    ],
    [
      'a tool name on one line and its JSON on the next',
      'open_page\n{"url": "https://j.example"}',
      { calls: [['open_page', { url: 'https://j.example' }]], text: '', strategies: ['name_then_json'] },
    ],
    [
      'a bare Python call filling its line',
      'Calling it:\nlookup_stock(ticker="F", days="7")',
      { calls: [['lookup_stock', { ticker: 'F', days: 7 }]], text: 'Calling it:', strategies: ['pythonic'] },
    ],
    [
      'calls as list items, bullets removed with them',
      'Plan:\n- lookup_stock(ticker="A")\n- lookup_stock(ticker="B")',
      { calls: [['lookup_stock', { ticker: 'A' }], ['lookup_stock', { ticker: 'B' }]], text: 'Plan:', strategies: ['pythonic'] },
    ],
    [
      'a pythonic list of two calls',
      '[ping(), open_page(url="https://k.example")]',
      { calls: [['ping', {}], ['open_page', { url: 'https://k.example' }]], text: '', strategies: ['pythonic'] },
    ],
  ])('%s', (_label, content, expected) => check(content, expected));

  it.each([
    ['JSON naming an undeclared tool', '{"name": "browse", "arguments": {"q": "x"}}'],
    ['JSON data that merely has a name key', 'The record is {"name": "Alice", "age": 41}.'],
    ['an echoed tool definition', '{"name": "ping", "description": "d", "parameters": {"type": "object", "properties": {}}}'],
    ['a call mentioned inside a sentence', 'You can run lookup_stock(ticker="X") later if you like.'],
    ['a code sample calling print', '```python\nprint(total)\n```'],
    ['a tool name in a sentence followed by JSON', 'I would use open_page\n{"url": "https://l.example"}'],
    ['a truncated JSON call', '{"name": "ping", "arguments": {'],
    ['markdown brackets', 'See [the docs] and {this} for (more).'],
  ])('%s is not a call', (_label, content) => {
    const got = run(content);
    expect(got.calls).toEqual([]);
    expect(got.text).toBe(content.trim());
    expect(got.full.strategy).toBeNull();
  });

  it('with no tools declared, only explicit-marker formats yield calls', () => {
    const content = '{"name": "ping", "arguments": {}}\n<tool_call>{"name": "anything", "arguments": {"a": 1}}</tool_call>';
    const r = extractToolCallsFromContent(content, undefined, { generateId: () => 'call_fixed000' });
    expect(r.calls).toEqual([{ id: 'call_fixed000', name: 'anything', arguments: { a: 1 } }]);
    expect(r.text).toBe('{"name": "ping", "arguments": {}}');
    expect(r.strategies).toEqual(['tool_call_tag']);
    expect(run('lookup_stock(ticker="Z")', []).calls).toEqual([]);
  });
});

describe('extractToolCallsFromContent: names', () => {
  it('keeps an unknown name in an explicit-marker format so the loop can answer "Unknown tool"', () => {
    check('<tool_call>{"name": "teleport", "arguments": {"to": "mars"}}</tool_call>', {
      calls: [['teleport', { to: 'mars' }]],
      text: '',
      strategies: ['tool_call_tag'],
    });
  });

  it.each([
    ['LookupStock', 'case'],
    ['lookup-stock', 'case'],
    ['functions.lookup_stock', 'prefix'],
    ['default_api.lookup_stock', 'prefix'],
    ['lookup_stok', 'fuzzy'],
  ])('repairs %s to lookup_stock (%s) and reports it', (written, how) => {
    const r = extractToolCallsFromContent(`<tool_call>{"name": "${written}", "arguments": {"ticker": "A"}}</tool_call>`, TOOLS);
    expect(r.calls.map((c) => c.name)).toEqual(['lookup_stock']);
    expect(r.repairs).toEqual([{ kind: 'tool_name_repaired', callIndex: 0, from: written, to: 'lookup_stock', how }]);
  });

  it('does not send a call with a command key to exec_shell when the name is unrelated', () => {
    const r = extractToolCallsFromContent('{"name": "deploy", "arguments": {"command": "ship it"}}', TOOLS);
    expect(r.calls).toEqual([]);
  });
});

describe('extractToolCallsFromContent: arguments', () => {
  it('maps aliased keys and coerces types, reporting each repair with its call index', () => {
    const r = extractToolCallsFromContent(
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call><tool_call>{"name": "exec_shell", "arguments": {"cmd": "ls", "timeout": "15"}}</tool_call>',
      TOOLS,
      { generateId: fixedIds() },
    );
    expect(r.calls).toEqual([
      { id: 'call_test0000', name: 'ping', arguments: {} },
      { id: 'call_test0001', name: 'exec_shell', arguments: { command: 'ls', timeout: 15 } },
    ]);
    expect(r.repairs).toEqual([
      { kind: 'tool_args_normalized', callIndex: 1, from: 'cmd', to: 'command' },
      { kind: 'arg_coerced', callIndex: 1, key: 'timeout', from: 'string', to: 'integer' },
    ]);
  });

  it('keeps a quoted number a string when the schema wants a string', () => {
    check('<|python_tag|>save_note(title="42", content="007")', {
      calls: [['save_note', { title: '42', content: '007' }]],
      text: '',
      strategies: ['python_tag'],
    });
  });

  it('places positional Python arguments on the parameters in schema order', () => {
    check('lookup_stock("BA", 3)', { calls: [['lookup_stock', { ticker: 'BA', days: 3 }]], text: '', strategies: ['pythonic'] });
  });

  it('gives call ids in Ollama\'s shape by default', () => {
    const r = extractToolCallsFromContent('<tool_call>{"name": "ping", "arguments": {}}</tool_call>', TOOLS);
    expect(r.calls[0].id).toMatch(/^call_[a-z0-9]{8}$/);
  });
});

describe('extractToolCallsFromContent: reasoning', () => {
  it('ignores calls drafted inside <think> and reports the reasoning apart', () => {
    const r = run('<think>maybe <tool_call>{"name": "ping", "arguments": {}}</tool_call>?</think>Opening the page.\n<tool_call>{"name": "open_page", "arguments": {"url": "https://m.example"}}</tool_call>');
    expect(r.calls).toEqual([['open_page', { url: 'https://m.example' }]]);
    expect(r.text).toBe('Opening the page.');
    expect(r.full.thinking).toBe('maybe <tool_call>{"name": "ping", "arguments": {}}</tool_call>?');
  });

  it('treats text before a lone </think> as reasoning (the prompt opened the block)', () => {
    const r = run('weighing options {"name": "ping", "arguments": {}}</think>\nNothing to do.');
    expect(r.calls).toEqual([]);
    expect(r.text).toBe('Nothing to do.');
    expect(r.full.thinking).toBe('weighing options {"name": "ping", "arguments": {}}');
  });

  it('treats an unclosed leading <think> as reasoning to the end', () => {
    const r = run('<think>I could call {"name": "ping", "arguments": {}} and then');
    expect(r).toMatchObject({ calls: [], text: '' });
    expect(r.full.thinking).toBe('I could call {"name": "ping", "arguments": {}} and then');
  });

  it('takes gpt-oss analysis and Gemma thought channels as reasoning', () => {
    const harmony = run('<|channel|>analysis<|message|>check quotes<|end|><|start|>assistant<|channel|>final<|message|>No call needed.<|return|>');
    expect(harmony).toMatchObject({ calls: [], text: 'No call needed.' });
    expect(harmony.full.thinking).toBe('check quotes');
    const gemma = run('<|channel>thought\nshould ping<channel|>Pinging.');
    expect(gemma).toMatchObject({ calls: [], text: 'Pinging.' });
    expect(gemma.full.thinking).toBe('should ping');
  });
});

describe('extractToolCallsFromContent: remaining text', () => {
  it.each([
    ['keeps a space where words would touch', 'Wait<tool_call>{"name": "ping", "arguments": {}}</tool_call>here', 'Wait here'],
    ['keeps paragraph breaks', 'First.\n\n<tool_call>{"name": "ping", "arguments": {}}</tool_call>\n\nSecond.', 'First.\n\nSecond.'],
    ['adds no space in scripts written without spaces', '好的<tool_call>{"name": "ping", "arguments": {}}</tool_call>完成', '好的完成'],
    ['drops end-of-turn tokens', 'All set.<|im_end|>', 'All set.'],
    ['drops a stray closing tag when the reply made calls', '<tool_call>{"name": "ping", "arguments": {}}</tool_call></tool_call> ok', 'ok'],
    ['keeps a closing tag mentioned in a reply without calls', 'Close it with </tool_call> please.', 'Close it with </tool_call> please.'],
    [
      'keeps a block whose JSON is broken whole, so the loop can see it',
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call> <tool_call>{"name": "ping", "arguments": {"x": }}</tool_call>',
      '<tool_call>{"name": "ping", "arguments": {"x": }}</tool_call>',
    ],
  ])('%s', (_label, content, text) => {
    expect(run(content).text).toBe(text);
  });
});

describe('extractToolCallsFromContent: cut-off blocks', () => {
  it('accepts an unclosed block only when its tool is declared and its required arguments are present', () => {
    expect(run('<tool_call>save_note\n<arg_key>title</arg_key>\n<arg_value>x</arg_value>').calls).toEqual([]);
    expect(run('<tool_call>save_note\n<arg_key>title</arg_key>\n<arg_value>x</arg_value>\n<arg_key>content</arg_key>\n<arg_value>y</arg_value>').calls).toEqual([
      ['save_note', { title: 'x', content: 'y' }],
    ]);
    expect(run('<tool_call>teleport\n<arg_key>to</arg_key>\n<arg_value>mars</arg_value>').calls).toEqual([]);
    expect(run('<tool_call>save_note\n<arg_key>title</arg_key>\n<arg_value>trunc').calls).toEqual([]);
  });

  it('does not re-read a refused cut-off block as a loose JSON call', () => {
    const content = '<tool_call>{"name": "save_note", "arguments": {"title": "only"}}';
    expect(run(content)).toMatchObject({ calls: [], text: content, strategies: [] });
  });

  it('repairs a JSON body that its closing tag cut one brace short', () => {
    check('<tool_call>{"name": "open_page", "arguments": {"url": "https://n.example"}</tool_call>', {
      calls: [['open_page', { url: 'https://n.example' }]],
      text: '',
      strategies: ['tool_call_tag'],
    });
  });
});

describe('extractToolCallsFromContent: mixed replies', () => {
  it('collects calls of several formats in order and lists every strategy', () => {
    const r = run('<tool_call>{"name": "ping", "arguments": {}}</tool_call>\nThen:\nlookup_stock(ticker="T")');
    expect(r.calls).toEqual([['ping', {}], ['lookup_stock', { ticker: 'T' }]]);
    expect(r.strategies).toEqual(['tool_call_tag', 'pythonic']);
    expect(r.full.strategy).toBe('tool_call_tag');
    expect(r.text).toBe('Then:');
  });

  it('does not count a bare JSON echo of a marked call twice', () => {
    const r = run('<tool_call>{"name": "ping", "arguments": {}}</tool_call>\nthat is {"name": "ping", "arguments": {}}');
    expect(r.calls).toEqual([['ping', {}]]);
  });
});
