import type { LlmToolDefinition } from '../llm-types';
import { MODEL_FAMILIES } from './model-family';
import type { ModelFamily } from './model-family';
import { FAMILY_TOOL_GUIDANCE, describeSchemaType, formatToolSchemas, getToolInstructionPrompt } from './tool-prompt-templates';

const readFile: LlmToolDefinition = {
  name: 'read_file',
  description: 'Read a file from the workspace.',
  parameters: {
    type: 'object',
    required: ['path'],
    properties: {
      path: { type: 'string', description: 'Path relative to the workspace' },
      limit: { type: ['integer', 'null'], default: 200 },
    },
  },
};
const listFiles: LlmToolDefinition = { name: 'list_files', description: '', parameters: { type: 'object' } };

describe('describeSchemaType', () => {
  it.each([
    [undefined, 'any'],
    [{}, 'any'],
    [{ type: 'string' }, 'string'],
    [{ type: ['integer', 'null'] }, 'integer | null'],
    [{ type: 'string', enum: ['text', 'hex'] }, '"text" | "hex"'],
    [{ type: 'array', items: { type: 'string' } }, 'array<string>'],
    [{ type: 'array' }, 'array'],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, 'string | number'],
    [{ oneOf: [{ type: 'boolean' }, { enum: [1, 2] }] }, 'boolean | 1 | 2'],
    [{ properties: { a: { type: 'string' } } }, 'object'],
  ])('%p → %p', (schema, expected) => {
    expect(describeSchemaType(schema)).toBe(expected);
  });
});

describe('formatToolSchemas', () => {
  it('lists each tool with `name: type (required) — desc` lines, nesting object properties', () => {
    const nested: LlmToolDefinition = {
      name: 'search',
      description: '  Search files.  ',
      parameters: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string', description: 'Text to find' },
          options: { type: 'object', properties: { caseSensitive: { type: 'boolean', description: 'Match case' } } },
        },
      },
    };
    expect(formatToolSchemas([readFile, listFiles, nested])).toBe(
      [
        '## read_file',
        'Read a file from the workspace.',
        '- path: string (required) — Path relative to the workspace',
        '- limit: integer | null (default: 200)',
        '',
        '## list_files',
        '(no parameters)',
        '',
        '## search',
        'Search files.',
        '- query: string (required) — Text to find',
        '- options: object',
        '  - caseSensitive: boolean — Match case',
      ].join('\n'),
    );
  });
});

describe('getToolInstructionPrompt', () => {
  it('builds the full qwen3 prompt: tools, the JSON-array format, rules and family guidance', () => {
    expect(getToolInstructionPrompt('qwen3', [readFile, listFiles])).toBe(
      [
        '# Tools',
        '',
        'You can call the following tools.',
        '',
        '## read_file',
        'Read a file from the workspace.',
        '- path: string (required) — Path relative to the workspace',
        '- limit: integer | null (default: 200)',
        '',
        '## list_files',
        '(no parameters)',
        '',
        '# How to call tools',
        '',
        'To call tools, reply with ONLY a JSON array of calls, each with "name" and "arguments":',
        '',
        '[{"name":"tool_name","arguments":{"parameter":"value"}}]',
        '',
        'For example:',
        '[{"name":"read_file","arguments":{"path":"..."}}]',
        '',
        '# Rules',
        '',
        '1. Each reply is EITHER tool calls OR a plain-text answer to the user, never both.',
        '2. The array must be valid JSON: double-quoted keys and strings, no comments, no trailing commas.',
        '3. Use only this one format: no XML tags, no function-call syntax such as name(arg="value"), no other wrappers.',
        '4. Only call the tools listed above, with their exact names and parameters. Never invent tools or parameters.',
        '5. Never write tool results yourself. Each result comes back in the next user message between <<tool_output>> and <</tool_output>>.',
        '6. After a result arrives, call the next tool or, when the task is done, answer in plain text. Do not narrate what you are about to do; do it.',
        '7. Do not wrap the array in ``` code fences and do not write anything before or after it.',
        '8. Do not use <tool_call> tags; write the bare JSON array.',
        '9. Call one tool at a time and wait for its result before the next call.',
      ].join('\n'),
    );
  });

  it('builds the compact prompt with an example from the first tool', () => {
    const prompt = getToolInstructionPrompt('unknown', [listFiles], { compact: true });
    expect(prompt.slice(prompt.indexOf('For example:'))).toBe(
      [
        'For example:',
        '[{"name":"list_files","arguments":{}}]',
        '',
        '# Rules',
        '',
        '1. Reply with EITHER a JSON array of tool calls OR a plain-text answer, never both.',
        '2. The array must be valid JSON in exactly the format above; no other format.',
        '3. Only call the tools listed, with their exact names. Never invent tools or parameters.',
        '4. Never write tool results yourself. Each result comes back in the next user message between <<tool_output>> and <</tool_output>>.',
      ].join('\n'),
    );
  });

  it('fills example arguments by type and enum', () => {
    const tool: LlmToolDefinition = {
      name: 'configure',
      description: 'x',
      parameters: {
        type: 'object',
        required: ['count', 'flag', 'mode', 'items', 'ratio'],
        properties: {
          count: { type: 'integer' },
          flag: { type: 'boolean' },
          mode: { type: 'string', enum: ['fast', 'slow'] },
          items: { type: 'array' },
          ratio: { type: ['number', 'null'] },
        },
      },
    };
    const prompt = getToolInstructionPrompt('unknown', [tool]);
    expect(prompt).toContain('For example:\n[{"name":"configure","arguments":{"count":1,"flag":true,"mode":"fast","items":[],"ratio":1}}]');
  });

  it('returns an empty prompt when there are no tools', () => {
    expect(getToolInstructionPrompt('qwen3', [])).toBe('');
  });

  // each family's guidance lands after the six common rules, numbered on
  it.each(MODEL_FAMILIES.map((family) => [family] as [ModelFamily]))('appends the %s guidance after the common rules', (family) => {
    const prompt = getToolInstructionPrompt(family, [listFiles]);
    const guidance = (FAMILY_TOOL_GUIDANCE[family] ?? []).map((line, i) => `${i + 7}. ${line}`);
    const rules = prompt.slice(prompt.indexOf('# Rules')).split('\n').slice(8);
    expect(rules).toEqual(guidance);
  });
});
