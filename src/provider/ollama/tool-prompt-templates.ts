// System-prompt instructions for text-based tool calling: the tools with their schemas, the one
// output format the extractor parses (text-tool-format.ts), the rules, and a line or two per
// family that names the family's own native syntax so the model does not fall back to it.

import type { JsonSchema, LlmToolDefinition } from '../llm-types';
import type { ModelFamily } from './model-family';
import { TOOL_OUTPUT_CLOSE, TOOL_OUTPUT_OPEN, formatToolCallsAsText } from './text-tool-format';

export interface ToolPromptOptions {
  /** shorter rules (cloud models, whose proxies time out on long prompts) */
  compact?: boolean;
}

const BARE_ARRAY = 'write the bare JSON array';

/** Per-family reminders; each names a format that family is trained to emit natively. */
export const FAMILY_TOOL_GUIDANCE: Readonly<Partial<Record<ModelFamily, readonly string[]>>> = {
  qwen3: [
    'Do not wrap the array in ``` code fences and do not write anything before or after it.',
    `Do not use <tool_call> tags; ${BARE_ARRAY}.`,
    'Call one tool at a time and wait for its result before the next call.',
  ],
  qwen2: ['Do not wrap the array in ``` code fences.'],
  hermes: [`Do not use <tool_call> XML tags; ${BARE_ARRAY}.`],
  llama: [`Do not use <|python_tag|> or Python-style calls such as name(arg="value"); ${BARE_ARRAY}.`],
  mistral: [`Do not prefix the array with [TOOL_CALLS]; ${BARE_ARRAY}.`],
  devstral: [`Do not prefix the array with [TOOL_CALLS]; ${BARE_ARRAY}.`],
  'gpt-oss': ['Write the JSON array as your final reply, not inside your reasoning or a commentary channel.'],
  deepseek: [`Do not use tool-call special tokens; ${BARE_ARRAY}.`],
  'deepseek-r1': [`Do not use tool-call special tokens; after any reasoning, ${BARE_ARRAY} as your whole reply.`],
  glm: [`Do not use <tool_call> or <arg_key> tags; ${BARE_ARRAY}.`],
  kimi: [`Do not use <|tool_calls_section_begin|> markers; ${BARE_ARRAY}.`],
  minimax: [`Do not use <minimax:tool_call> or <invoke> XML; ${BARE_ARRAY}.`],
  nemotron: [`Do not use <TOOLCALL> tags; ${BARE_ARRAY}.`],
  'command-r': [`Do not write a plan or an "Action:" block first; ${BARE_ARRAY}.`],
  granite: [`Do not use <|tool_call|> markers; ${BARE_ARRAY}.`],
  gemma: ['Do not wrap the array in code fences or explain it.'],
  phi: ['Do not wrap the array in code fences or explain it.'],
  gemini: ['Do not wrap the array in code fences or explain it.'],
};

/** "string", "integer | null", `"a" | "b"`, "array<string>", "any" … */
export function describeSchemaType(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) return variants.map(describeSchemaType).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return types.map((type) => (type === 'array' && schema.items ? `array<${describeSchemaType(schema.items)}>` : type)).join(' | ');
}

// `- name: type (required) — description`, nested object properties indented once more
function parameterLines(schema: JsonSchema | undefined, indent: string, depth: number): string[] {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  return Object.entries(properties).flatMap(([name, property]) => {
    const flags = required.has(name) ? ' (required)' : '';
    const fallback = property.default === undefined ? '' : ` (default: ${JSON.stringify(property.default)})`;
    const description = property.description ? ` — ${property.description.trim()}` : '';
    const line = `${indent}- ${name}: ${describeSchemaType(property)}${flags}${fallback}${description}`;
    const nested = depth < 2 && property.properties ? parameterLines(property, `${indent}  `, depth + 1) : [];
    return [line, ...nested];
  });
}

export function formatToolSchemas(tools: readonly LlmToolDefinition[]): string {
  return tools
    .map((tool) => {
      const lines = parameterLines(tool.parameters, '', 0);
      const description = tool.description.trim();
      return [`## ${tool.name}`, ...(description ? [description] : []), ...(lines.length > 0 ? lines : ['(no parameters)'])].join('\n');
    })
    .join('\n\n');
}

const EXAMPLE_VALUES: Record<string, unknown> = { string: '...', integer: 1, number: 1, boolean: true, array: [], object: {} };

/** A call of the first tool with its required parameters filled with placeholder values. */
function exampleCall(tool: LlmToolDefinition): string {
  const required = tool.parameters.required ?? [];
  const args = Object.fromEntries(
    required.map((name) => {
      const property = tool.parameters.properties?.[name];
      if (Array.isArray(property?.enum) && property.enum.length > 0) return [name, property.enum[0]];
      const type = Array.isArray(property?.type) ? property.type[0] : property?.type;
      return [name, EXAMPLE_VALUES[type ?? 'string'] ?? '...'];
    }),
  );
  return formatToolCallsAsText([{ name: tool.name, arguments: args }]);
}

function rules(compact: boolean): string[] {
  const results = `Never write tool results yourself. Each result comes back in the next user message between ${TOOL_OUTPUT_OPEN} and ${TOOL_OUTPUT_CLOSE}.`;
  if (compact) {
    return [
      'Reply with EITHER a JSON array of tool calls OR a plain-text answer, never both.',
      'The array must be valid JSON in exactly the format above; no other format.',
      'Only call the tools listed, with their exact names. Never invent tools or parameters.',
      results,
    ];
  }
  return [
    'Each reply is EITHER tool calls OR a plain-text answer to the user, never both.',
    'The array must be valid JSON: double-quoted keys and strings, no comments, no trailing commas.',
    'Use only this one format: no XML tags, no function-call syntax such as name(arg="value"), no other wrappers.',
    'Only call the tools listed above, with their exact names and parameters. Never invent tools or parameters.',
    results,
    'After a result arrives, call the next tool or, when the task is done, answer in plain text. Do not narrate what you are about to do; do it.',
  ];
}

/** The instructions merged into the system message in text mode; '' when there are no tools. */
export function getToolInstructionPrompt(
  family: ModelFamily,
  tools: readonly LlmToolDefinition[],
  options: ToolPromptOptions = {},
): string {
  if (tools.length === 0) return '';
  const compact = options.compact === true;
  const numbered = [...rules(compact), ...(FAMILY_TOOL_GUIDANCE[family] ?? [])].map((rule, i) => `${i + 1}. ${rule}`);
  return [
    '# Tools',
    'You can call the following tools.',
    formatToolSchemas(tools),
    '# How to call tools',
    'To call tools, reply with ONLY a JSON array of calls, each with "name" and "arguments":',
    formatToolCallsAsText([{ name: 'tool_name', arguments: { parameter: 'value' } }]),
    `For example:\n${exampleCall(tools[0])}`,
    '# Rules',
    numbered.join('\n'),
  ].join('\n\n');
}
