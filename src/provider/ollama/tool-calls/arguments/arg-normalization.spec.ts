import type { LlmToolDefinition } from '../../../llm-types';
import { normalizeToolArgs, normalizeToolArgsWithRepairs } from './arg-normalization';

const tool = (props: string[]): LlmToolDefinition => ({
  name: 't',
  description: '',
  parameters: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) },
});

describe('normalizeToolArgs', () => {
  it.each<[string, string[], Record<string, unknown>, Record<string, unknown>]>([
    ['file_path → path', ['path', 'content'], { file_path: 'a', content: 'b' }, { path: 'a', content: 'b' }],
    ['filepath and text → path and content', ['path', 'content'], { filepath: 'a', text: 'b' }, { path: 'a', content: 'b' }],
    ['filename → path', ['path'], { filename: 'a' }, { path: 'a' }],
    ['body → content', ['path', 'content'], { path: 'a', body: 'b' }, { path: 'a', content: 'b' }],
    ['the reverse direction: path → file_path', ['file_path'], { path: 'a' }, { file_path: 'a' }],
    ['case and separators: FilePath → file_path', ['file_path'], { FilePath: 'a' }, { file_path: 'a' }],
    ['cmd → command', ['command'], { cmd: 'ls' }, { command: 'ls' }],
    ['a key whose words contain the parameter: memory_key → key', ['key', 'value'], { memory_key: 'k', value: 1 }, { key: 'k', value: 1 }],
    ['content_text → content', ['path', 'content'], { path: 'p', content_text: 'c' }, { path: 'p', content: 'c' }],
    ['an existing key is never overwritten', ['path'], { path: 'keep', file_path: 'other' }, { path: 'keep', file_path: 'other' }],
    ['unknown keys stay as they are', ['path'], { colour: 'red' }, { colour: 'red' }],
    ['no word match by substring: keyboard is not key', ['key'], { keyboard: 'x' }, { keyboard: 'x' }],
    ['two equally good targets: leave it', ['source_path', 'target_path'], { file_path: 'a' }, { file_path: 'a' }],
  ])('%s', (_label, props, args, expected) => {
    expect(normalizeToolArgs(args, tool(props))).toEqual(expected);
  });

  it('leaves arguments alone when the tool has no schema', () => {
    expect(normalizeToolArgs({ file_path: 'a' }, undefined)).toEqual({ file_path: 'a' });
  });

  it('reports each key it moved', () => {
    expect(normalizeToolArgsWithRepairs({ file_path: 'a', text: 'b', extra: 1 }, tool(['path', 'content']))).toEqual({
      args: { path: 'a', content: 'b', extra: 1 },
      mappings: [
        { from: 'file_path', to: 'path' },
        { from: 'text', to: 'content' },
      ],
    });
  });
});
