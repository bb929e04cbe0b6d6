// DeepSeek R1 / V3 (`function` + separator + the name, JSON in a ```json fence) and V3.1 (the
// name before the separator, bare JSON after it), with the opening-token spellings the models
// and their distills write: ▁, _, spaces, an escaped \_, the short <｜tool▁calls｜>, ASCII bars,
// and a dropped call-begin token. Written from the formats' descriptions.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

const r1Call = (name: string, json: string) =>
  `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜>`;
const v31Call = (name: string, json: string) => `<｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${json}<｜tool▁call▁end｜>`;
const END = '<｜tool▁calls▁end｜>';

describe('DeepSeek calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'R1: a fenced call after reasoning, end of sentence token dropped',
      `<think>Need Tokyo.</think>${'<｜tool▁calls▁begin｜>'}${r1Call('get_weather', '{"city": "Tokyo"}')}${END}<｜end▁of▁sentence｜>`,
      { calls: [['get_weather', { city: 'Tokyo' }]], text: '' },
    ],
    [
      'R1: two fenced calls',
      `<｜tool▁calls▁begin｜>${r1Call('search', '{"query": "a"}')}\n${r1Call('search', '{"query": "b"}')}${END}`,
      {
        calls: [
          ['search', { query: 'a' }],
          ['search', { query: 'b' }],
        ],
        text: '',
      },
    ],
    ...(['<｜tool_calls_begin｜>', '<｜tool calls begin｜>', '<｜tool\\_calls\\_begin｜>', '<｜tool▁calls｜>'] as const).map(
      (opening): [string, string, FamilyCase] => [
        `R1 distill opening ${opening}`,
        `Sure.${opening}${r1Call('get_weather', '{"city": "Kyiv"}')}${END}`,
        { calls: [['get_weather', { city: 'Kyiv' }]], text: 'Sure.' },
      ],
    ),
    [
      'R1: the call-begin token left out',
      `<｜tool▁calls▁begin｜>function<｜tool▁sep｜>get_weather\n\`\`\`json\n{"city": "Lviv"}\n\`\`\`<｜tool▁call▁end｜>${END}`,
      { calls: [['get_weather', { city: 'Lviv' }]], text: '' },
    ],
    [
      'R1: a fence without a language tag',
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n\`\`\`\n{"query": "q"}\n\`\`\`<｜tool▁call▁end｜>${END}`,
      { calls: [['search', { query: 'q' }]], text: '' },
    ],
    [
      'V3.1: name before the separator, prose before and after',
      `I'll check.<｜tool▁calls▁begin｜>${v31Call('get_weather', '{"city": "Paris"}')}${END}完成`,
      { calls: [['get_weather', { city: 'Paris' }]], text: "I'll check.完成" },
    ],
    [
      'V3.1: a fenced JSON body inside the call block',
      `<｜tool▁calls▁begin｜>${v31Call('search', '```json\n{"query": "fenced"}\n```')}${END}`,
      { calls: [['search', { query: 'fenced' }]], text: '' },
    ],
    [
      'V3.1 with ASCII bars',
      `<|tool▁calls▁begin|><|tool▁call▁begin|>search<|tool▁sep|>{"query": "ascii"}<|tool▁call▁end|><|tool▁calls▁end|>`,
      { calls: [['search', { query: 'ascii' }]], text: '' },
    ],
    [
      'V3.1: a call with broken JSON does not sink the next',
      `<｜tool▁calls▁begin｜>${v31Call('search', '{"query": }')}${v31Call('get_weather', '{"city": "Oslo"}')}${END}`,
      { calls: [['get_weather', { city: 'Oslo' }]] },
    ],
    [
      'tool output markers are not calls',
      '<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"temp": 22}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>',
      { calls: [] },
    ],
    [
      'an undeclared tool is dropped',
      `<｜tool▁calls▁begin｜>${v31Call('rm_rf', '{"path": "/"}')}${END}`,
      { calls: [], text: '', dropped: ['rm_rf'] },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
