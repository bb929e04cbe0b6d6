import { extractToolCallsFromContent } from './extract-tool-calls';
import { check, fixedIds, run, TOOLS, type Expected } from './extraction.test-kit';

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
      {
        calls: [
          ['ping', {}],
          ['lookup_stock', { ticker: 'GE' }],
        ],
        text: '',
        strategies: ['json'],
      },
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
      {
        calls: [
          ['lookup_stock', { ticker: 'A' }],
          ['lookup_stock', { ticker: 'B' }],
        ],
        text: 'Plan:',
        strategies: ['pythonic'],
      },
    ],
    [
      'a pythonic list of two calls',
      '[ping(), open_page(url="https://k.example")]',
      {
        calls: [
          ['ping', {}],
          ['open_page', { url: 'https://k.example' }],
        ],
        text: '',
        strategies: ['pythonic'],
      },
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
  it('drops a call to a tool that is not declared, not even closely, and records it', () => {
    const r = run(
      'Going.<tool_call>{"name": "teleport", "arguments": {"to": "mars"}}</tool_call><tool_call>{"name": "ping", "arguments": {}}</tool_call>',
    );
    expect(r.calls).toEqual([['ping', {}]]);
    expect(r.text).toBe('Going.');
    expect(r.full.dropped).toEqual([{ name: 'teleport', arguments: { to: 'mars' }, strategy: 'tool_call_tag', reason: 'unknown_tool' }]);
  });

  it("with unknownTools 'pass', returns the undeclared call under its written name, in call order, and still records it", () => {
    const r = extractToolCallsFromContent(
      'Going.<tool_call>{"name": "teleport", "arguments": {"to": "mars"}}</tool_call><tool_call>{"name": "ping", "arguments": {}}</tool_call>',
      TOOLS,
      { unknownTools: 'pass', generateId: fixedIds() },
    );
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
      ['teleport', { to: 'mars' }],
      ['ping', {}],
    ]);
    expect(r.text).toBe('Going.');
    expect(r.dropped).toEqual([{ name: 'teleport', arguments: { to: 'mars' }, strategy: 'tool_call_tag', reason: 'unknown_tool' }]);
  });

  it('keeps any name in an explicit-marker format when no tools are declared', () => {
    check(
      '<tool_call>{"name": "teleport", "arguments": {"to": "mars"}}</tool_call>',
      { calls: [['teleport', { to: 'mars' }]], text: '', strategies: ['tool_call_tag'] },
      [],
    );
  });

  it('reports no dropped field when nothing was dropped', () => {
    expect(run('<tool_call>{"name": "ping", "arguments": {}}</tool_call>').full).not.toHaveProperty('dropped');
  });

  it.each([
    ['a shortened name whose arguments happen to fit', '<tool_call>{"name": "stock", "arguments": {"ticker": "X"}}</tool_call>'],
    ['a different tool of the same family', '<tool_call>{"name": "exec_python", "arguments": {"command": "ls"}}</tool_call>'],
  ])('never runs %s under a guessed name', (_label, content) => {
    const r = run(content);
    expect(r.calls).toEqual([]);
    expect(r.full.dropped?.length).toBe(1);
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

  it("gives call ids in Ollama's shape by default", () => {
    const r = extractToolCallsFromContent('<tool_call>{"name": "ping", "arguments": {}}</tool_call>', TOOLS);
    expect(r.calls[0].id).toMatch(/^call_[a-z0-9]{8}$/);
  });
});

describe('extractToolCallsFromContent: reasoning', () => {
  it('ignores calls drafted inside <think> and reports the reasoning apart', () => {
    const r = run(
      '<think>maybe <tool_call>{"name": "ping", "arguments": {}}</tool_call>?</think>Opening the page.\n<tool_call>{"name": "open_page", "arguments": {"url": "https://m.example"}}</tool_call>',
    );
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
    const harmony = run(
      '<|channel|>analysis<|message|>check quotes<|end|><|start|>assistant<|channel|>final<|message|>No call needed.<|return|>',
    );
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
    [
      'drops a stray closing tag when the reply made calls',
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call></tool_call> ok',
      'ok',
    ],
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
    expect(
      run('<tool_call>save_note\n<arg_key>title</arg_key>\n<arg_value>x</arg_value>\n<arg_key>content</arg_key>\n<arg_value>y</arg_value>')
        .calls,
    ).toEqual([['save_note', { title: 'x', content: 'y' }]]);
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
    expect(r.calls).toEqual([
      ['ping', {}],
      ['lookup_stock', { ticker: 'T' }],
    ]);
    expect(r.strategies).toEqual(['tool_call_tag', 'pythonic']);
    expect(r.full.strategy).toBe('tool_call_tag');
    expect(r.text).toBe('Then:');
  });

  it('does not count a bare JSON echo of a marked call twice', () => {
    const r = run('<tool_call>{"name": "ping", "arguments": {}}</tool_call>\nthat is {"name": "ping", "arguments": {}}');
    expect(r.calls).toEqual([['ping', {}]]);
  });
});
