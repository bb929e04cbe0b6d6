import type { LlmMessage } from '../provider/llm-types';

// Why a message exists; the provider only sees `role`, the loop and the journal need the rest.
export const MESSAGE_KINDS = [
  'system',
  'prompt',
  'assistant',
  'tool_result',
  'nudge',
  'injected',
  'summary',
  'trim_note',
  'epilogue_request',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface TranscriptMessage extends LlmMessage {
  /** position in the full session transcript */
  index: number;
  kind: MessageKind;
  /** epoch ms at which the tool output was pruned (mark, don't delete) */
  compactedAt?: number;
  /** a tool result whose call failed, was denied or timed out (not a completed output) */
  toolFailed?: boolean;
}

/** What a pruned tool result renders as (opencode's text). */
export const COMPACTED_PLACEHOLDER = '[Old tool result content cleared]';

/** Only tool results are pruned; a stray compactedAt on another kind is ignored. */
export function isCompacted(m: LlmMessage): boolean {
  const t = m as Partial<TranscriptMessage>;
  return t.compactedAt !== undefined && (t.kind === 'tool_result' || m.role === 'tool');
}

/** The content the model sees: pruned tool results become the placeholder. */
export function modelContent(m: LlmMessage): string {
  return isCompacted(m) ? COMPACTED_PLACEHOLDER : m.content;
}

/** Index for messages derived by the context functions (trim notes) that are not stored in the transcript. */
export const SYNTHETIC_INDEX = -1;

/**
 * An atomic slice of the context: an assistant message with tool calls plus the tool results that
 * directly follow it, or any other single message. Trimming and compaction cut only between units,
 * so a call is never separated from its result (corvid's positional slicing did that).
 */
export interface MessageUnit {
  messages: TranscriptMessage[];
  /** tool results with no assistant call before them */
  orphan: boolean;
}

export function isToolCallMessage(m: TranscriptMessage): boolean {
  return m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0;
}

export function isToolResult(m: TranscriptMessage): boolean {
  return m.kind === 'tool_result';
}

export function groupUnits(messages: readonly TranscriptMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i];
    if (isToolCallMessage(m)) {
      const unit = [m];
      i++;
      while (i < messages.length && isToolResult(messages[i])) unit.push(messages[i++]);
      units.push({ messages: unit, orphan: false });
    } else if (isToolResult(m)) {
      const unit = [m];
      i++;
      while (i < messages.length && isToolResult(messages[i])) unit.push(messages[i++]);
      units.push({ messages: unit, orphan: true });
    } else {
      units.push({ messages: [m], orphan: false });
      i++;
    }
  }
  return units;
}

/** Drops leading tool results that lost their assistant call (a kept tail must not start with one). */
export function dropLeadingOrphans(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  let start = 0;
  while (start < messages.length && isToolResult(messages[start])) start++;
  return messages.slice(start);
}

/**
 * The pinned head of a context: leading system messages and the first prompt. Both survive every
 * trim and compaction: the system prompt defines the tools, the prompt defines the task.
 */
export function splitPinned(messages: readonly TranscriptMessage[]): {
  pinned: TranscriptMessage[];
  rest: TranscriptMessage[];
} {
  const firstPrompt = messages.findIndex((m) => m.kind === 'prompt');
  const pinned: TranscriptMessage[] = [];
  const rest: TranscriptMessage[] = [];
  messages.forEach((m, i) => {
    const leadingSystem = m.kind === 'system' && messages.slice(0, i).every((p) => p.kind === 'system');
    if (leadingSystem || i === firstPrompt) pinned.push(m);
    else rest.push(m);
  });
  return { pinned, rest };
}

/** Finds the assistant call a tool result answers, by id first, else by position. */
export function findCallFor(
  messages: readonly TranscriptMessage[],
  result: TranscriptMessage,
): { name: string; arguments: Record<string, unknown> } | undefined {
  if (result.toolCallId) {
    for (const m of messages) {
      const call = m.toolCalls?.find((c) => c.id === result.toolCallId);
      if (call) return call;
    }
  }
  // no id (text-mode tools): the nth result after an assistant answers its nth call
  const pos = messages.indexOf(result);
  let offset = 0;
  for (let i = pos - 1; i >= 0; i--) {
    if (isToolResult(messages[i])) {
      offset++;
      continue;
    }
    return messages[i].toolCalls?.[offset];
  }
  return undefined;
}
