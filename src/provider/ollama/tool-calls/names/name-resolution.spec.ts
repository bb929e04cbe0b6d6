import type { LlmToolDefinition } from '../../../llm-types';
import { createToolResolver, fuzzyMatchToolName, toolResolverFor } from './name-resolution';

const tool = (name: string, props: string[] = []): LlmToolDefinition => ({
  name,
  description: `does ${name}`,
  parameters: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) },
});

const TOOLS = [
  tool('read_file', ['path']),
  tool('write_file', ['path', 'content']),
  tool('run_command', ['command']),
  tool('search_files', ['pattern']),
  tool('search_web', ['query']),
  tool('fs__list_dir', ['path']),
  tool('get_forecast', ['city']),
];

describe('fuzzyMatchToolName', () => {
  it.each<[string, Record<string, unknown> | undefined, string]>([
    ['read_file', undefined, 'read_file'],
    ['READ_FILE', undefined, 'read_file'],
    ['readFile', undefined, 'read_file'],
    ['read-file', undefined, 'read_file'],
    ['functions.read_file', undefined, 'read_file'],
    ['default_api.run_command', undefined, 'run_command'],
    ['mcp__workspace__read_file', undefined, 'read_file'],
    ['workspace.write_file', undefined, 'write_file'],
    ['corvid_read_file', undefined, 'read_file'],
    ['list_dir', undefined, 'fs__list_dir'],
    ['read_fiel', undefined, 'read_file'],
    ['run_commands', undefined, 'run_command'],
    ['file_read', undefined, 'read_file'],
  ])('%s → %s', (name, args, expected) => {
    expect(fuzzyMatchToolName(name, args, TOOLS)).toBe(expected);
  });

  it.each<[string, Record<string, unknown> | undefined]>([
    ['gh', undefined],
    ['deploy', { command: 'ship' }], // a command key alone says nothing about the tool
    ['file', undefined], // read_file and write_file are equally likely
    ['search', undefined], // two search tools, no arguments to tell them apart
    ['forecast', undefined],
    // arguments that fit a tool do not name it: a shortened name is a guess, not a near miss
    ['forecast', { city: 'Oslo' }],
    ['search', { query: 'tides' }],
    ['translate_text', { text: 'hola' }],
    ['', undefined],
  ])('%s stays unresolved', (name, args) => {
    expect(fuzzyMatchToolName(name, args, TOOLS)).toBeUndefined();
  });

  it('returns undefined when no tools are declared', () => {
    expect(fuzzyMatchToolName('read_file', undefined, [])).toBeUndefined();
  });
});

describe('toolResolverFor', () => {
  it('builds one resolver per tool list and a new one when the list changes in place', () => {
    const tools = [...TOOLS];
    const first = toolResolverFor(tools);
    expect(toolResolverFor(tools)).toBe(first);
    tools.push(tool('new_tool'));
    const second = toolResolverFor(tools);
    expect(second).not.toBe(first);
    expect(second.resolve('new_tool')).toEqual({ name: 'new_tool', how: 'exact' });
  });

  it('shares one empty resolver for a missing or empty list', () => {
    expect(toolResolverFor(undefined)).toBe(toolResolverFor([]));
    expect(toolResolverFor(undefined).resolve('read_file')).toBeUndefined();
  });
});

describe('createToolResolver', () => {
  it('says how each name was resolved', () => {
    const r = createToolResolver(TOOLS);
    expect([r.resolve('read_file'), r.resolve('ReadFile'), r.resolve('tools.read_file'), r.resolve('raed_file')]).toEqual([
      { name: 'read_file', how: 'exact' },
      { name: 'read_file', how: 'case' },
      { name: 'read_file', how: 'prefix' },
      { name: 'read_file', how: 'fuzzy' },
    ]);
  });
});
