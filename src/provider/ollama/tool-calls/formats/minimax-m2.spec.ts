// MiniMax-M2: calls in a <minimax:tool_call> block, one <invoke name="…"> element per call with
// <parameter name="…"> children; reasoning in <think>. Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

const invoke = (name: string, params: Record<string, string>) =>
  `<invoke name="${name}">\n${Object.entries(params)
    .map(([k, v]) => `<parameter name="${k}">${v}</parameter>`)
    .join('\n')}\n</invoke>`;
const block = (...invokes: string[]) => `<minimax:tool_call>\n${invokes.join('\n')}\n</minimax:tool_call>`;

describe('MiniMax-M2 calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'one call after reasoning and prose',
      `<think>Need the weather.</think>\nOne moment.\n${block(invoke('get_weather', { city: 'Bern', days: '4' }))}`,
      { calls: [['get_weather', { city: 'Bern', days: 4 }]], text: 'One moment.' },
    ],
    [
      'parallel calls in one block',
      block(invoke('search', { query: 'rust', limit: '5' }), invoke('get_weather', { city: 'Chur' })),
      {
        calls: [
          ['search', { query: 'rust', limit: 5 }],
          ['get_weather', { city: 'Chur' }],
        ],
        text: '',
      },
    ],
    [
      'values are trimmed, as the format writes them without padding',
      block(invoke('search', { query: '\n  glaciers \n' })),
      { calls: [['search', { query: 'glaciers' }]] },
    ],
    [
      'a bare-word attribute and single quotes',
      "<minimax:tool_call><invoke name=search><parameter name='query'>lakes</parameter></invoke></minimax:tool_call>",
      { calls: [['search', { query: 'lakes' }]], text: '' },
    ],
    [
      'array and object values typed by the schema',
      block(invoke('set_flags', { tags: '["a", "b"]', options: '{"x": 1}', enabled: 'false' })),
      { calls: [['set_flags', { tags: ['a', 'b'], options: { x: 1 }, enabled: false }]] },
    ],
    [
      'invoke elements without the block around them',
      invoke('get_weather', { city: 'Sion' }),
      { calls: [['get_weather', { city: 'Sion' }]], text: '' },
    ],
    [
      'an invoke without a name does not sink its sibling',
      block('<invoke>\n<parameter name="query">x</parameter>\n</invoke>', invoke('search', { query: 'kept' })),
      { calls: [['search', { query: 'kept' }]], text: '' },
    ],
    [
      'an undeclared tool is dropped',
      block(invoke('delete_everything', { confirm: 'yes' })),
      { calls: [], text: '', dropped: ['delete_everything'] },
    ],
    [
      'a call inside reasoning is not a call',
      `<think>${block(invoke('search', { query: 'draft' }))}</think>Done.`,
      { calls: [], text: 'Done.' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
