import { check, type Expected } from './extraction.test-kit';

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
      {
        calls: [
          ['ping', {}],
          ['open_page', { url: 'https://a.example' }],
        ],
        text: '',
        strategies: ['tool_call_tag'],
      },
    ],
    [
      'two <tool_call> blocks, the last one never closed',
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call>\n<tool_call>{"name": "lookup_stock", "arguments": {"ticker": "MSFT"}}',
      {
        calls: [
          ['ping', {}],
          ['lookup_stock', { ticker: 'MSFT' }],
        ],
        text: '',
        strategies: ['tool_call_tag'],
      },
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
      {
        calls: [
          ['ping', {}],
          ['lookup_stock', { ticker: 'IBM' }],
        ],
        text: '',
        strategies: ['mistral'],
      },
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
      {
        calls: [
          ['ping', {}],
          ['open_page', { url: 'https://d.example' }],
        ],
        text: '',
        strategies: ['deepseek'],
      },
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
      "Pinging.<|tool_call_start|>[ping(), lookup_stock(ticker='VW')]<|tool_call_end|>",
      {
        calls: [
          ['ping', {}],
          ['lookup_stock', { ticker: 'VW' }],
        ],
        text: 'Pinging.',
        strategies: ['pythonic'],
      },
    ],
    [
      'Olmo 3 <function_calls> with one call per line',
      '<function_calls>ping()\nopen_page(url="https://f.example")</function_calls>',
      {
        calls: [
          ['ping', {}],
          ['open_page', { url: 'https://f.example' }],
        ],
        text: '',
        strategies: ['pythonic'],
      },
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
      {
        calls: [['save_note', { title: 'howto', content: 'wrap calls in <tool_call>…</tool_call>' }]],
        text: '',
        strategies: ['tool_call_tag'],
      },
    ],
    [
      'Nemotron <TOOLCALL> list',
      '<TOOLCALL>[{"name": "ping", "arguments": {}}]</TOOLCALL>',
      { calls: [['ping', {}]], text: '', strategies: ['tool_call_tag'] },
    ],
    ['ReAct labels in markdown bold', '**Action:** ping\n**Action Input:** {}', { calls: [['ping', {}]], text: '', strategies: ['react'] }],
    [
      'GigaChat 3 call after its message separator',
      'Checking.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "lookup_stock", "arguments": {"ticker": "YNDX"}}',
      { calls: [['lookup_stock', { ticker: 'YNDX' }]], text: 'Checking.', strategies: ['tool_call_tag'] },
    ],
    [
      'LongCat tags around a JSON call',
      '<longcat_tool_call>{"name": "ping", "arguments": {}}</longcat_tool_call>',
      { calls: [['ping', {}]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'Phi-4-mini functools list',
      'functools[{"name": "open_page", "arguments": {"url": "https://p.example"}}]',
      { calls: [['open_page', { url: 'https://p.example' }]], text: '', strategies: ['tool_call_tag'] },
    ],
    [
      'ReAct plain-text input goes to the single parameter',
      'Action: open_page\nAction Input: https://h.example\nObservation: (pending)',
      { calls: [['open_page', { url: 'https://h.example' }]], text: 'Observation: (pending)', strategies: ['react'] },
    ],
  ])('%s', (_label, content, expected) => check(content, expected));
});
