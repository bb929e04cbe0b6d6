// Pythonic call lists (`[name(key=value, …), …]`, as Llama 3.2/4, LFM2 and Olmo write them)
// wherever they stand in a reply, and calls on lines of their own. A loose format: only declared
// tools count. Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

describe('pythonic calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'a list filling the reply',
      '[get_weather(city="Lima", days=2), search(query=\'ceviche\')]',
      {
        calls: [
          ['get_weather', { city: 'Lima', days: 2 }],
          ['search', { query: 'ceviche' }],
        ],
        text: '',
      },
    ],
    [
      'a list after prose on the same line',
      'Sure, checking now: [get_weather(city="Cusco")]',
      { calls: [['get_weather', { city: 'Cusco' }]], text: 'Sure, checking now:' },
    ],
    [
      'a list with prose after it on the same line',
      '[search(query="llamas")] I will report back.',
      { calls: [['search', { query: 'llamas' }]], text: 'I will report back.' },
    ],
    [
      'a list in the middle of a paragraph',
      'First I need data.\nHere: [search(query="a"), search(query="b")] and then I summarise.',
      {
        calls: [
          ['search', { query: 'a' }],
          ['search', { query: 'b' }],
        ],
        text: 'First I need data.\nHere: and then I summarise.',
      },
    ],
    [
      'Python literals: True, None, nested dicts and lists',
      '[set_flags(enabled=True, tags=["x"], options={"a": None})]',
      { calls: [['set_flags', { enabled: true, tags: ['x'], options: { a: null } }]], text: '' },
    ],
    [
      'a malformed call in the list does not sink its siblings',
      '[search(query="a"), get_weather(city=), search(query="b")]',
      {
        calls: [
          ['search', { query: 'a' }],
          ['search', { query: 'b' }],
        ],
        text: '',
      },
    ],
    [
      'a list naming an undeclared tool is not a call',
      'Use [summon_dragon(color="red")] for that.',
      { calls: [], text: 'Use [summon_dragon(color="red")] for that.' },
    ],
    ['a list that is assigned in code is not a call', 'x = [search(query="a")]', { calls: [], text: 'x = [search(query="a")]' }],
    ['a subscript in code is not a call', 'cache[search(query="a")] = 1', { calls: [], text: 'cache[search(query="a")] = 1' }],
    [
      'a markdown link is not a call',
      'See [the docs](https://example.com) first.',
      { calls: [], text: 'See [the docs](https://example.com) first.' },
    ],
    [
      'a call on a line of its own, without brackets',
      'Let me check.\nget_weather(city="Quito")',
      { calls: [['get_weather', { city: 'Quito' }]], text: 'Let me check.' },
    ],
    [
      'Llama 4 python markers around the list',
      '<|python_start|>[search(query="andes")]<|python_end|>',
      { calls: [['search', { query: 'andes' }]], text: '' },
    ],
    [
      'LFM2 markers around the list',
      'Ok.<|tool_call_start|>[get_weather(city="Puno")]<|tool_call_end|>',
      { calls: [['get_weather', { city: 'Puno' }]], text: 'Ok.' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
