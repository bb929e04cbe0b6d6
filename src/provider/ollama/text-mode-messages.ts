// LlmMessage[] → Ollama /api/chat messages, in the two tool-calling modes.
// Native: tool_calls on assistant turns, tool messages with tool_name and tool_call_id.
// Text: no `tools` parameter exists for the model, so assistant turns replay their calls in the
// same JSON-array text the model is told to write (it sees what it did — corvid stripped them),
// tool results come back as user messages between <<tool_output>> delimiters, and the tool
// instructions are merged into the system message.

import type { JsonSchema, LlmMessage, LlmRole, LlmToolDefinition } from '../llm-types';
import type { ModelFamily } from './model-family';
import { formatToolCallsAsText, formatToolOutput } from './text-tool-format';
import { getToolInstructionPrompt } from './tool-prompt-templates';

export interface OllamaWireToolCall {
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
}

/** Structurally what ollama-js `Message` accepts, plus `tool_call_id` (servers ≥ 0.12.10). */
export interface OllamaWireMessage {
  role: LlmRole;
  content: string;
  thinking?: string;
  tool_calls?: OllamaWireToolCall[];
  tool_name?: string;
  tool_call_id?: string;
}

export interface OllamaWireTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface WireMessageOptions {
  /** send earlier reasoning back (`thinking`); off by default, it costs context */
  includeThinking?: boolean;
}

export interface TextModeOptions extends WireMessageOptions {
  family?: ModelFamily;
  compact?: boolean;
}

export function toOllamaTools(tools: readonly LlmToolDefinition[]): OllamaWireTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

// a tool result without toolName still answers a known call: recover the name from its id
function toolNamesById(messages: readonly LlmMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) names.set(call.id, call.name);
  }
  return names;
}

function withThinking(wire: OllamaWireMessage, message: LlmMessage, options: WireMessageOptions): OllamaWireMessage {
  return options.includeThinking && message.thinking ? { ...wire, thinking: message.thinking } : wire;
}

export function toNativeMessages(messages: readonly LlmMessage[], options: WireMessageOptions = {}): OllamaWireMessage[] {
  const names = toolNamesById(messages);
  return messages.map((message) => {
    if (message.role === 'tool') {
      const wire: OllamaWireMessage = { role: 'tool', content: message.content };
      const toolName = message.toolName ?? (message.toolCallId ? names.get(message.toolCallId) : undefined);
      if (toolName) wire.tool_name = toolName;
      if (message.toolCallId) wire.tool_call_id = message.toolCallId;
      return wire;
    }
    const wire: OllamaWireMessage = { role: message.role, content: message.content };
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      wire.tool_calls = message.toolCalls.map((call) => ({
        id: call.id,
        function: { name: call.name, arguments: call.arguments ?? {} },
      }));
    }
    return withThinking(wire, message, options);
  });
}

export function toTextModeMessages(
  messages: readonly LlmMessage[],
  tools: readonly LlmToolDefinition[],
  options: TextModeOptions = {},
): OllamaWireMessage[] {
  const names = toolNamesById(messages);
  const wire: OllamaWireMessage[] = [];
  let previousWasToolResult = false;

  for (const message of messages) {
    if (message.role === 'tool') {
      const toolName = message.toolName ?? (message.toolCallId ? names.get(message.toolCallId) : undefined);
      const block = formatToolOutput(toolName, message.content);
      // results of one batch of calls travel together in one user turn
      if (previousWasToolResult) wire[wire.length - 1].content += `\n\n${block}`;
      else wire.push({ role: 'user', content: block });
      previousWasToolResult = true;
      continue;
    }
    previousWasToolResult = false;
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      const calls = formatToolCallsAsText(message.toolCalls);
      const text = message.content.trim();
      wire.push(withThinking({ role: 'assistant', content: text ? `${text}\n\n${calls}` : calls }, message, options));
      continue;
    }
    wire.push(withThinking({ role: message.role, content: message.content }, message, options));
  }

  return mergeIntoSystem(wire, getToolInstructionPrompt(options.family ?? 'unknown', tools, { compact: options.compact }));
}

function mergeIntoSystem(messages: OllamaWireMessage[], prompt: string): OllamaWireMessage[] {
  if (!prompt) return messages;
  const index = messages.findIndex((message) => message.role === 'system');
  if (index === -1) return [{ role: 'system', content: prompt }, ...messages];
  const system = messages[index];
  const merged = system.content.trim() ? `${system.content.trimEnd()}\n\n${prompt}` : prompt;
  return messages.map((message, i) => (i === index ? { ...system, content: merged } : message));
}
