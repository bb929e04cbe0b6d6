// How the viewer draws each event of the vocabulary on a session's timeline: one kind per event
// type (a Record over EventType, so a new event type does not compile until it has one). The
// viewer reads this through GET /api/events/catalogue instead of keeping its own list of names.
import { describeEvents, type EventDescription } from '../journal/event-catalogue';
import type { EventType } from '../journal/journal-events';

export type TimelineKind =
  | 'session'
  | 'message'
  | 'slot'
  | 'iteration'
  | 'inference'
  | 'retry'
  | 'repair'
  | 'tool'
  | 'approval'
  | 'mcp'
  | 'sandbox'
  | 'nudge'
  | 'hallucination'
  | 'break'
  | 'epilogue'
  | 'context'
  | 'error'
  | 'host';

export const TIMELINE_KIND: Record<EventType, TimelineKind> = {
  session_started: 'session',
  tools_available: 'session',
  models_listed: 'session',
  user_message_queued: 'message',
  user_message_dequeued: 'message',
  user_message_injected: 'message',
  abort: 'error',
  error: 'error',
  session_finished: 'session',
  session_expired: 'session',
  slot_wait_started: 'slot',
  slot_status: 'slot',
  slot_acquired: 'slot',
  slot_released: 'slot',
  gpu_detected: 'host',
  iteration_started: 'iteration',
  iteration_finished: 'iteration',
  inference_request: 'inference',
  inference_response: 'inference',
  model_reloaded: 'inference',
  inference_retry: 'retry',
  stream_malformed_line: 'repair',
  tool_calls_extracted: 'repair',
  tool_name_repaired: 'repair',
  tool_args_normalized: 'repair',
  tool_args_coerced: 'repair',
  tool_call_repaired: 'repair',
  tool_call_dropped: 'repair',
  tools_disabled: 'repair',
  tool_call: 'tool',
  tool_result: 'tool',
  tool_error: 'tool',
  tool_result_capped: 'tool',
  approval_requested: 'approval',
  approval_decided: 'approval',
  approval_unknown: 'approval',
  mcp_server_connected: 'mcp',
  mcp_server_failed: 'mcp',
  mcp_server_died: 'mcp',
  mcp_added: 'host',
  command_sandbox: 'sandbox',
  nudge: 'nudge',
  mid_chain_nudge: 'nudge',
  hallucination_stripped: 'hallucination',
  repeat_break: 'break',
  same_tool_break: 'break',
  cycle_break: 'break',
  error_repeat_break: 'break',
  content_loop_break: 'break',
  max_iterations: 'break',
  summary_epilogue: 'epilogue',
  grace_turn: 'epilogue',
  trim: 'context',
  prune: 'context',
  compaction: 'context',
  history_cleared: 'context',
  context_overflow: 'context',
  model_pull: 'host',
  model_deleted: 'host',
  database_restarted: 'host',
  journal_entry_rejected: 'host',
};

export interface CatalogueEntry extends EventDescription {
  kind: TimelineKind;
}

/** The vocabulary as the viewer needs it: type, group, meaning, payload fields and timeline kind. */
export function viewerCatalogue(): CatalogueEntry[] {
  return describeEvents().map((e) => ({ ...e, kind: TIMELINE_KIND[e.type as EventType] }));
}
