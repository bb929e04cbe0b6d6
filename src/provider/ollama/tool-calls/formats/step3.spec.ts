// Step-3: a section of calls between full-width-bar tokens, each call `function` + separator +
// a steptml invoke element whose parameters are steptml elements; or the tool's name right
// after the separator. Written from the format's description.
import { checkFamilyCase, type FamilyCase } from '../extraction.test-kit';

const B = '<｜tool_calls_begin｜>';
const E = '<｜tool_calls_end｜>';
const call = (body: string) => `<｜tool_call_begin｜>function<｜tool_sep｜>${body}<｜tool_call_end｜>`;
const invoke = (name: string, params: Record<string, string>) =>
  `<steptml:invoke name="${name}">${Object.entries(params)
    .map(([k, v]) => `<steptml:parameter name="${k}">${v}</steptml:parameter>`)
    .join('')}</steptml:invoke>`;

describe('Step-3 calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'one invoke between prose, typed by the schema',
      `Checking.${B}${call(invoke('get_weather', { city: 'Oslo', days: '3' }))}${E}Back soon.`,
      { calls: [['get_weather', { city: 'Oslo', days: 3 }]], text: 'Checking. Back soon.' },
    ],
    [
      'two calls in one section',
      `${B}${call(invoke('get_weather', { city: 'Oslo' }))}\n${call(invoke('search', { query: 'fjords', limit: '2' }))}${E}`,
      {
        calls: [
          ['get_weather', { city: 'Oslo' }],
          ['search', { query: 'fjords', limit: 2 }],
        ],
        text: '',
      },
    ],
    [
      'values written with spaces around them are trimmed',
      `${B}${call(invoke('search', { query: '  tides  ' }))}${E}`,
      { calls: [['search', { query: 'tides' }]], text: '' },
    ],
    [
      'the tool name after the separator, arguments as JSON',
      `${B}${call('get_weather\n{"city": "Bergen"}')}${E}`,
      { calls: [['get_weather', { city: 'Bergen' }]], text: '' },
    ],
    [
      'the tool name after the separator, arguments as steptml parameters',
      `${B}${call('search<steptml:parameter name="query">auroras</steptml:parameter>')}${E}`,
      { calls: [['search', { query: 'auroras' }]], text: '' },
    ],
    [
      'a section the output cut off after a whole call',
      `${B}${call(invoke('get_weather', { city: 'Tromsø' }))}`,
      { calls: [['get_weather', { city: 'Tromsø' }]], text: '' },
    ],
    [
      'the steptml toolcall wrapper of the deep-research variant',
      '<steptml:toolcall>\n<steptml:invoke name="search">\n<steptml:parameter name="query">tides</steptml:parameter>\n</steptml:invoke>\n</steptml:toolcall>',
      { calls: [['search', { query: 'tides' }]], text: '' },
    ],
    [
      'an undeclared tool is dropped, its sibling kept',
      `${B}${call(invoke('launch_rocket', { target: 'moon' }))}${call(invoke('search', { query: 'moon' }))}${E}`,
      { calls: [['search', { query: 'moon' }]], text: '', dropped: ['launch_rocket'] },
    ],
    [
      'a malformed call does not sink the next one',
      `${B}${call('<steptml:invoke name="search"><steptml:parameter>nameless</steptml:parameter></steptml:invoke>')}${call(invoke('get_weather', { city: 'Riga' }))}${E}`,
      { calls: [['get_weather', { city: 'Riga' }]] },
    ],
    [
      'a call cut off inside a parameter is no call',
      `${B}<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Os`,
      { calls: [] },
    ],
    [
      'a call drafted inside reasoning is no call',
      `<think>maybe ${B}${call(invoke('search', { query: 'x' }))}${E}</think>No call needed.`,
      { calls: [], text: 'No call needed.' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
