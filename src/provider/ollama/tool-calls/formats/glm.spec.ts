// GLM-4.5 and later: `<tool_call>name` then <arg_key>/<arg_value> pairs. Values are written as
// text when the parameter is a string and as JSON otherwise, so a value is typed by the schema
// when there is one and read as JSON when there is none. Written from the format's description.
import { checkFamilyCase, tool, type FamilyCase } from '../extraction.test-kit';

const pairs = (args: Record<string, string>) =>
  Object.entries(args)
    .map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>`)
    .join('\n');
const call = (name: string, args: Record<string, string>) => `<tool_call>${name}\n${pairs(args)}\n</tool_call>`;
/** a tool declared by name only, as a caller that knows no schema passes it */
const untyped = [tool('configure'), tool('get_weather')];

describe('GLM calls', () => {
  it.each<[string, string, FamilyCase]>([
    [
      'string parameters stay strings even when they look like numbers',
      call('get_weather', { city: '1984', unit: 'true' }),
      { calls: [['get_weather', { city: '1984', unit: 'true' }]], text: '' },
    ],
    [
      'typed parameters are decoded by the schema',
      call('set_flags', { enabled: 'false', tags: '["x", "y"]', options: '{"deep": {"n": 1}}', ratio: '0.25' }),
      { calls: [['set_flags', { enabled: false, tags: ['x', 'y'], options: { deep: { n: 1 } }, ratio: 0.25 }]], text: '' },
    ],
    [
      'without a schema, JSON values are decoded and words stay text',
      call('configure', { level: '3', verbose: 'true', paths: '["a", "b"]', mode: 'fast', note: '"quoted"' }),
      { calls: [['configure', { level: 3, verbose: true, paths: ['a', 'b'], mode: 'fast', note: 'quoted' }]], tools: untyped },
    ],
    [
      'without a schema, a date is not a number',
      call('configure', { since: '2024-06-27' }),
      { calls: [['configure', { since: '2024-06-27' }]], tools: untyped },
    ],
    [
      'no tools declared at all: values decoded the same way',
      call('configure', { level: '7' }),
      { calls: [['configure', { level: 7 }]], tools: [] },
    ],
    [
      'GLM-4.7 writes pairs without line breaks',
      '<tool_call>get_weather<arg_key>city</arg_key><arg_value>北京</arg_value><arg_key>days</arg_key><arg_value>2</arg_value></tool_call>',
      { calls: [['get_weather', { city: '北京', days: 2 }]], text: '' },
    ],
    [
      'an escaped \\n between the name and the pairs',
      "<tool_call>get_weather\\n<arg_key>city</arg_key>\\n<arg_value>Xi'an</arg_value>\\n</tool_call>",
      { calls: [['get_weather', { city: "Xi'an" }]], text: '' },
    ],
    ['values are trimmed', call('search', { query: '\n  terracotta  \n' }), { calls: [['search', { query: 'terracotta' }]] }],
    ['a call with no arguments', '<tool_call>get_weather\n</tool_call>', { calls: [['get_weather', {}]], text: '' }],
    [
      'a block with a broken pair does not sink the next block',
      `<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>unclosed\n</tool_call>${call('get_weather', { city: 'Harbin' })}`,
      { calls: [['get_weather', { city: 'Harbin' }]] },
    ],
    [
      'a cut-off block missing a required argument is no call',
      '<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>out.txt</arg_value>',
      { calls: [] },
    ],
    [
      'the observation token after the calls goes',
      `${call('search', { query: 'q' })}<|observation|>`,
      { calls: [['search', { query: 'q' }]], text: '' },
    ],
  ])('%s', (_label, content, expected) => checkFamilyCase(content, expected));
});
