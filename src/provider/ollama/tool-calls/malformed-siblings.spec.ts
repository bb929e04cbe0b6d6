// One malformed call among several must not sink its well-formed siblings, whatever the format:
// each row holds a good call, a broken one, and another good call.
import { FAMILY_TOOLS, run } from './extraction.test-kit';

const GOOD: Array<[string, Record<string, unknown>]> = [
  ['search', { query: 'a' }],
  ['search', { query: 'b' }],
];

describe('a malformed call among well-formed ones', () => {
  it.each([
    [
      'Hermes blocks',
      '<tool_call>{"name": "search", "arguments": {"query": "a"}}</tool_call><tool_call>{"name": "search", "arguments": {"query": }}</tool_call><tool_call>{"name": "search", "arguments": {"query": "b"}}</tool_call>',
    ],
    [
      'a JSON list in one block',
      '<tool_call>[{"name": "search", "arguments": {"query": "a"}}, {"name": "search", "arguments": }, {"name": "search", "arguments": {"query": "b"}}]</tool_call>',
    ],
    ['Mistral name[ARGS] pairs', '[TOOL_CALLS]search[ARGS]{"query": "a"}search[ARGS]{"query": }search[ARGS]{"query": "b"}'],
    [
      'a Mistral list',
      '[TOOL_CALLS][{"name": "search", "arguments": {"query": "a"}}, {"name": }, {"name": "search", "arguments": {"query": "b"}}]',
    ],
    [
      'Kimi calls',
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"query": "a"}<|tool_call_end|><|tool_call_begin|>functions.search:1<|tool_call_argument_begin|>{"query"<|tool_call_end|><|tool_call_begin|>functions.search:2<|tool_call_argument_begin|>{"query": "b"}<|tool_call_end|><|tool_calls_section_end|>',
    ],
    [
      'Gemma 4 blocks',
      '<|tool_call>call:search{query:<|"|>a<|"|>}<tool_call|><|tool_call>call:search{query:}<tool_call|><|tool_call>call:search{query:<|"|>b<|"|>}<tool_call|>',
    ],
    [
      'Qwen3-Coder functions',
      '<tool_call>\n<function=search>\n<parameter=query>\na\n</parameter>\n</function>\n<function=>\n</function>\n<function=search>\n<parameter=query>\nb\n</parameter>\n</function>\n</tool_call>',
    ],
    [
      'a bare JSON list',
      'Calls: [{"name": "search", "arguments": {"query": "a"}}, {"name": "search", "arguments": {"query": }}, {"name": "search", "arguments": {"query": "b"}}]',
    ],
    ['a pythonic list', '[search(query="a"), search(query=), search(query="b")]'],
    [
      'ReAct actions',
      'Action: search\nAction Input: {"query": "a"}\nObservation: x\nAction: search\nAction Input: {"query": \nObservation: y\nAction: search\nAction Input: {"query": "b"}',
    ],
    ['Functionary parts', '>>>search\n{"query": "a"}>>>search\n{"query": }>>>search\n{"query": "b"}'],
  ])('%s', (_label, content) => {
    expect(run(content, FAMILY_TOOLS).calls).toEqual(GOOD);
  });
});
