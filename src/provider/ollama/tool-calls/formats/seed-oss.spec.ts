// Seed-OSS: calls in <seed:tool_call> blocks, each a <function=name> element with
// <parameter=key> children whose values sit verbatim between the format's own line breaks;
// reasoning in <seed:think>. Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

const block = (fn: string, params: Record<string, string>) =>
  `<seed:tool_call>\n<function=${fn}>\n${Object.entries(params)
    .map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>`)
    .join('\n')}\n</function>\n</seed:tool_call>`;

describe('Seed-OSS calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'a call after reasoning, typed by the schema',
      `<seed:think>The user wants Lyon's weather.</seed:think>Let me check.\n${block('get_weather', { city: 'Lyon', days: '2' })}`,
      { calls: [['get_weather', { city: 'Lyon', days: 2 }]], text: 'Let me check.' },
    ],
    [
      'a call quoted inside reasoning is not a call',
      `<seed:think>I could write ${block('search', { query: 'x' })} but no.</seed:think>Nothing to look up.`,
      { calls: [], text: 'Nothing to look up.' },
    ],
    [
      'reasoning the prompt opened, closed in the reply',
      `weighing it ${block('search', { query: 'draft' })}</seed:think>${block('search', { query: 'final' })}`,
      { calls: [['search', { query: 'final' }]], text: '' },
    ],
    [
      'a value keeps its own indentation and inner line breaks',
      block('write_file', { path: 'a.py', content: '    def f():\n        return 1' }),
      { calls: [['write_file', { path: 'a.py', content: '    def f():\n        return 1' }]], text: '' },
    ],
    [
      'two functions in one block',
      `<seed:tool_call>\n<function=get_weather>\n<parameter=city>\nNice\n</parameter>\n</function>\n<function=search>\n<parameter=query>\nbeaches\n</parameter>\n</function>\n</seed:tool_call>`,
      {
        calls: [
          ['get_weather', { city: 'Nice' }],
          ['search', { query: 'beaches' }],
        ],
        text: '',
      },
    ],
    [
      'the word null is a null argument',
      block('get_weather', { city: 'Pau', unit: 'null' }),
      { calls: [['get_weather', { city: 'Pau', unit: null }]] },
    ],
    [
      'object and boolean parameters from the schema',
      block('set_flags', { enabled: 'true', options: '{"depth": 2}', ratio: '0.5' }),
      { calls: [['set_flags', { enabled: true, options: { depth: 2 }, ratio: 0.5 }]] },
    ],
    [
      'an end-of-sequence token after the call goes',
      `${block('search', { query: 'q' })}<seed:eos>`,
      { calls: [['search', { query: 'q' }]], text: '' },
    ],
    [
      'a broken function element does not sink its sibling',
      '<seed:tool_call>\n<function=>\n</function>\n<function=search>\n<parameter=query>\nok\n</parameter>\n</function>\n</seed:tool_call>',
      { calls: [['search', { query: 'ok' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
