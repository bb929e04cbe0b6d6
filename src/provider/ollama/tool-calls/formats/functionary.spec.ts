// Functionary v3.2 (`>>>recipient\n` parts: `all` prose, a tool with JSON arguments, `python`
// with raw code; the first part follows the prompt's own `>>>`) and v3.1 (`<function=name>{…}`
// `</function>`, and raw code after <|python_tag|> for the python tool). Written from the formats'
// descriptions.
import { checkFamilyCase, FAMILY_TOOLS, type FamilyCase } from '../extraction.test-kit';

describe('Functionary v3.2 calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'prose first, then a call',
      'all\nLet me look that up.>>>get_weather\n{"city": "Paris", "days": 1}',
      { calls: [['get_weather', { city: 'Paris', days: 1 }]], text: 'Let me look that up.' },
    ],
    [
      'a reply that starts with a call, then another',
      'search\n{"query": "louvre hours"}>>>get_weather\n{"city": "Paris"}',
      {
        calls: [
          ['search', { query: 'louvre hours' }],
          ['get_weather', { city: 'Paris' }],
        ],
        text: '',
      },
    ],
    [
      'raw code for the python tool',
      '>>>python\nimport math\nprint(math.pi)',
      { calls: [['python', { code: 'import math\nprint(math.pi)' }]], text: '' },
    ],
    [
      'a call between two prose parts',
      'all\nFirst this.>>>search\n{"query": "x"}>>>all\nThen that.',
      { calls: [['search', { query: 'x' }]], text: 'First this. Then that.' },
    ],
    ['a prose-only reply loses its recipient line', 'all\nThe answer is 42.', { calls: [], text: 'The answer is 42.' }],
    [
      'a part whose JSON is broken does not sink the next',
      '>>>search\n{"query": }>>>get_weather\n{"city": "Nice"}',
      { calls: [['get_weather', { city: 'Nice' }]] },
    ],
    ['an undeclared tool is dropped', '>>>book_flight\n{"to": "NYC"}', { calls: [], text: '', dropped: ['book_flight'] }],
    [
      'a Python prompt in a code sample is not a part',
      'Try this:\n```\n>>> print(1)\n1\n```',
      { calls: [], text: 'Try this:\n```\n>>> print(1)\n1\n```' },
    ],
    [
      'a leading python line is code only when a python tool is declared',
      'python\nprint(1)',
      { calls: [], text: 'python\nprint(1)', tools: FAMILY_TOOLS.filter((t) => t.name !== 'python') },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});

describe('Functionary v3.1 calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'a function element with JSON arguments',
      'Checking.<function=get_weather>{"city": "Rome"}</function>',
      { calls: [['get_weather', { city: 'Rome' }]], text: 'Checking.' },
    ],
    [
      'two function elements in a row',
      '<function=search>{"query": "a"}</function><function=search>{"query": "b"}</function>',
      {
        calls: [
          ['search', { query: 'a' }],
          ['search', { query: 'b' }],
        ],
        text: '',
      },
    ],
    [
      'raw code after the python tag is a python call',
      '<|python_tag|>import os\nprint(os.getcwd())<|eom_id|>',
      { calls: [['python', { code: 'import os\nprint(os.getcwd())' }]], text: '' },
    ],
    [
      'a function element followed by python code',
      '<function=search>{"query": "q"}</function>\n<|python_tag|>print(2 * 21)',
      {
        calls: [
          ['search', { query: 'q' }],
          ['python', { code: 'print(2 * 21)' }],
        ],
        text: '',
      },
    ],
    [
      'a Python-style call of a declared tool after the tag is that call, not code',
      '<|python_tag|>search(query="tides")<|eom_id|>',
      { calls: [['search', { query: 'tides' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
