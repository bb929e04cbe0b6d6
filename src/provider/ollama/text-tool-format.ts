// The wire format of text-based tool calling, in one place so the prompt that teaches it, the
// history that replays it and the extractor that parses it cannot drift apart: calls are a bare
// JSON array `[{"name":…,"arguments":{…}}]`, results come back between the delimiters below.

import type { LlmToolCall } from '../llm-types';

export const TOOL_OUTPUT_OPEN = '<<tool_output>>';
export const TOOL_OUTPUT_CLOSE = '<</tool_output>>';

/** `[{"name":"read_file","arguments":{"path":"a.ts"}}]`, exactly what the prompt asks for. */
export function formatToolCallsAsText(calls: ReadonlyArray<Pick<LlmToolCall, 'name' | 'arguments'>>): string {
  return JSON.stringify(calls.map((call) => ({ name: call.name, arguments: call.arguments ?? {} })));
}

// a tool result that contains our delimiters (a file about this very format, or a prompt
// injection) must not be able to close the block early or fake a new one
export function neutralizeToolOutputDelimiters(text: string): string {
  return text.replace(/<<(\/?)tool_output>>/g, '<$1tool_output>');
}

/** One tool result as the model sees it in text mode. */
export function formatToolOutput(toolName: string | undefined, content: string): string {
  const header = toolName ? `tool: ${toolName}\n` : '';
  return `${TOOL_OUTPUT_OPEN}\n${header}${neutralizeToolOutputDelimiters(content)}\n${TOOL_OUTPUT_CLOSE}`;
}
