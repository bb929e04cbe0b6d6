// How a reply's tool calls are named: as the provider named them (Ollama's native ids, or the
// extractor's), or as the MCP agent names every call it queues, `call_${timestamp}_${index}`
// (mcp-agent-technical-spec.md §5 workflow step 1).
import type { LlmToolCall } from '../../provider/llm-types';

export type CallIdScheme = 'provider' | 'timestamp_index';

/**
 * The calls renamed `call_${timestamp}_${index}`. Two replies within one millisecond (scripted
 * runs) would share names, so the timestamp never goes back to or below the previous reply's.
 */
export function timestampCallIds(
  calls: readonly LlmToolCall[],
  now: number,
  previousTimestamp = 0,
): { calls: LlmToolCall[]; timestamp: number } {
  const timestamp = Math.max(now, previousTimestamp + 1);
  return { calls: calls.map((c, index) => ({ ...c, id: `call_${timestamp}_${index}` })), timestamp };
}

/**
 * The last timestamp this process named calls with. Approvals are addressed by call id across the
 * whole process (the approval queue, POST /api/approvals/:callId), so names must not repeat across
 * concurrent sessions either: two trials naming calls in the same millisecond collided.
 */
let lastInProcess = 0;

/** timestampCallIds against the process's last timestamp, which it then advances. */
export function processUniqueCallIds(calls: readonly LlmToolCall[], now: number): LlmToolCall[] {
  const named = timestampCallIds(calls, now, lastInProcess);
  lastInProcess = named.timestamp;
  return named.calls;
}
