// The one vocabulary: every event type Loupe records, with its payload fields. The loop, the
// provider, the host and the journal record through it (typed); scenarios check their event names
// and `with:` fields against it; the README catalogue is generated from it.
import type { z } from 'zod';
import { APPROVAL_EVENTS } from './events/approval-events';
import { CONTEXT_EVENTS } from './events/context-events';
import { HOST_EVENTS } from './events/host-events';
import { INFERENCE_EVENTS } from './events/inference-events';
import { LOOP_EVENTS } from './events/loop-events';
import { MCP_EVENTS } from './events/mcp-events';
import { SANDBOX_EVENTS } from './events/sandbox-events';
import { SESSION_EVENTS } from './events/session-events';
import { SLOT_EVENTS } from './events/slot-events';
import { TOOL_EVENTS } from './events/tool-events';

export const JOURNAL_EVENTS = {
  ...SESSION_EVENTS,
  ...SLOT_EVENTS,
  ...INFERENCE_EVENTS,
  ...TOOL_EVENTS,
  ...APPROVAL_EVENTS,
  ...MCP_EVENTS,
  ...SANDBOX_EVENTS,
  ...LOOP_EVENTS,
  ...CONTEXT_EVENTS,
  ...HOST_EVENTS,
};

/** Catalogue sections, in README order. */
export const EVENT_GROUPS = {
  'Session lifecycle': SESSION_EVENTS,
  'Inference slots': SLOT_EVENTS,
  'Iterations and model calls': INFERENCE_EVENTS,
  'Tool calls': TOOL_EVENTS,
  Approvals: APPROVAL_EVENTS,
  'External MCP servers': MCP_EVENTS,
  'Command sandbox': SANDBOX_EVENTS,
  'Loop control': LOOP_EVENTS,
  'Context management': CONTEXT_EVENTS,
  'Host and Loupe (no session)': HOST_EVENTS,
};

export type EventType = keyof typeof JOURNAL_EVENTS;
export type JournalEventMap = { [K in EventType]: z.infer<(typeof JOURNAL_EVENTS)[K]['payload']> };

export const JOURNAL_EVENT_TYPES = Object.keys(JOURNAL_EVENTS) as EventType[];

export function isJournalEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(JOURNAL_EVENTS, value);
}

/** Anything that records events of the vocabulary. */
export type RecordEvent = <K extends EventType>(type: K, payload: JournalEventMap[K]) => void;
