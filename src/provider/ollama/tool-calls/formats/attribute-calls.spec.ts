// `<function name="…">{json}</function>` — the Hermes-style element with the tool's name as an
// attribute — and DeepSeek V3.2's namespaced invoke elements. Written from the formats'
// descriptions.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

describe('calls named by an attribute', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'a function element with a JSON body',
      'Looking.<function name="get_weather">{"city": "Nice", "days": 3}</function>',
      { calls: [['get_weather', { city: 'Nice', days: 3 }]], text: 'Looking.' },
    ],
    [
      'single-quoted name and spacing around the body',
      '<function name=\'search\'>\n  {"query": "calanques"}\n</function>',
      { calls: [['search', { query: 'calanques' }]], text: '' },
    ],
    [
      'inside a tool_call wrapper',
      '<tool_call><function name="search">{"query": "q"}</function></tool_call>',
      { calls: [['search', { query: 'q' }]], text: '' },
    ],
    [
      'with parameter elements instead of JSON',
      '<function name="get_weather"><parameter name="city">Arles</parameter></function>',
      { calls: [['get_weather', { city: 'Arles' }]], text: '' },
    ],
    [
      'two elements, the first with broken JSON',
      '<function name="search">{"query": }</function><function name="search">{"query": "ok"}</function>',
      { calls: [['search', { query: 'ok' }]] },
    ],
    ['a bare function element in prose is not a call', 'Wrap it in a <function> tag.', { calls: [], text: 'Wrap it in a <function> tag.' }],
    [
      'DeepSeek V3.2: DSML invokes, string and JSON parameters',
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="set_flags">\n<｜DSML｜parameter name="tags" string="false">["a"]</｜DSML｜parameter>\n<｜DSML｜parameter name="options" string="false">{"k": 1}</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">42</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
      {
        calls: [
          ['set_flags', { tags: ['a'], options: { k: 1 } }],
          ['search', { query: '42' }],
        ],
        text: '',
      },
    ],
    [
      'DeepSeek V3.2: a JSON body and a closing tag without its namespace',
      '<｜DSML｜function_calls><｜DSML｜invoke name="get_weather">{"city": "Gent"}</｜DSML｜invoke></function_calls>',
      { calls: [['get_weather', { city: 'Gent' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
