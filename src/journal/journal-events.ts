// Every event type the loop, the provider and the tools can record, with its payload shape.
// The journal stores the payload as jsonb; the type name is the contract with dashboards and tests.

export const JOURNAL_EVENT_TYPES = [
  'session_started',
  'slot_wait_started',
  'slot_acquired',
  'slot_released',
  'slot_status',
  'gpu_detected',
  'iteration_started',
  'iteration_finished',
  'inference_request',
  'inference_retry',
  'stream_malformed_line',
  'tool_calls_extracted',
  'tool_name_repaired',
  'tool_args_normalized',
  'tool_call',
  'tool_result',
  'tool_error',
  'tools_disabled',
  'approval_requested',
  'approval_decided',
  'nudge',
  'mid_chain_nudge',
  'hallucination_stripped',
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'max_iterations',
  'summary_epilogue',
  'trim',
  'prune',
  'compaction',
  'context_overflow',
  'tool_result_capped',
  'user_message_injected',
  'mcp_server_failed',
  'mcp_server_connected',
  'tools_available',
  'models_listed',
  'model_pull',
  'model_deleted',
  'abort',
  'error',
  'session_finished',
] as const;

export type JournalEventType = (typeof JOURNAL_EVENT_TYPES)[number];

export function isJournalEventType(value: string): value is JournalEventType {
  return (JOURNAL_EVENT_TYPES as readonly string[]).includes(value);
}

export type EventPayload = Record<string, unknown>;
