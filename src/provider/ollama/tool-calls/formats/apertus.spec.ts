// Apertus: one JSON list of calls between <|tools_prefix|> and <|tools_suffix|>, each call an
// object whose only key is the tool's name; reasoning between <|inner_prefix|> and
// <|inner_suffix|>. Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

const P = '<|tools_prefix|>';
const S = '<|tools_suffix|>';

describe('Apertus calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'one call, the name as the object key',
      `Sure.${P}[{"get_weather": {"city": "Bern", "days": 2}}]${S}`,
      { calls: [['get_weather', { city: 'Bern', days: 2 }]], text: 'Sure.' },
    ],
    [
      'parallel calls in the list',
      `${P}[{"search": {"query": "Alps"}}, {"get_weather": {"city": "Zermatt"}}]${S}`,
      {
        calls: [
          ['search', { query: 'Alps' }],
          ['get_weather', { city: 'Zermatt' }],
        ],
        text: '',
      },
    ],
    [
      'reasoning in the inner channel is taken out, and a call drafted there is no call',
      `<|inner_prefix|>maybe ${P}[{"search": {"query": "draft"}}]${S}<|inner_suffix|>Checking.${P}[{"search": {"query": "final"}}]${S}`,
      { calls: [['search', { query: 'final' }]], text: 'Checking.' },
    ],
    ['a call with no arguments', `${P}[{"get_weather": {}}]${S}`, { calls: [['get_weather', {}]], text: '' }],
    [
      'a list the output cut off after its last whole call',
      `${P}[{"search": {"query": "a"}}, {"search": {"query": "b"}}`,
      {
        calls: [
          ['search', { query: 'a' }],
          ['search', { query: 'b' }],
        ],
        text: '',
      },
    ],
    [
      'a malformed element does not sink its siblings',
      `${P}[{"search": {"query": "a"}}, {"search": {"query": }}, {"get_weather": {"city": "Chur"}}]${S}`,
      {
        calls: [
          ['search', { query: 'a' }],
          ['get_weather', { city: 'Chur' }],
        ],
        text: '',
      },
    ],
    [
      'the usual name and arguments object is read too',
      `${P}[{"name": "search", "arguments": {"query": "lakes"}}]${S}`,
      { calls: [['search', { query: 'lakes' }]], text: '' },
    ],
    ['an undeclared tool is dropped', `${P}[{"format_disk": {"drive": "C"}}]${S}`, { calls: [], text: '', dropped: ['format_disk'] }],
    [
      'the end-of-turn token goes',
      `${P}[{"search": {"query": "q"}}]${S}<|assistant_end|>`,
      { calls: [['search', { query: 'q' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
