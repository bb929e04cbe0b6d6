import { PATHOLOGY_GROUPS, REPAIR_EVENTS } from '../../journal/events/loop-vocabulary';
import { recordedEvents } from '../expectations/recorded-events.test-kit';
import type { RecordedSession } from '../expectations/recorded-session';
import { pathologiesOf } from './trial-outcome';

const session = (events: Array<{ type: string; payload: object }>): RecordedSession => ({
  terminationReason: 'completed',
  iterations: 1,
  toolCallCount: 0,
  finalAnswer: 'done',
  hostEvents: [],
  messages: [],
  files: {},
  requests: null,
  toolCalls: [],
  events: recordedEvents(events),
  iterationRows: [],
});

describe("a trial's extraction repairs", () => {
  it('counts every kind of repair the provider records, a repaired text-mode call included', () => {
    const events = [
      { type: 'tool_name_repaired', payload: { callIndex: 0, from: 'Read_File', to: 'read_file', how: 'case' } },
      { type: 'tool_args_normalized', payload: { callIndex: 0, from: "{'p': 1}", to: '{"p":1}' } },
      { type: 'tool_args_coerced', payload: { callIndex: 0, key: 'n', from: '"3"', to: '3' } },
      { type: 'tool_call_repaired', payload: { callIndex: 0, detail: 'misspelt closing tag' } },
      { type: 'tool_call_repaired', payload: { callIndex: 1, detail: 'pseudo-JSON arguments' } },
      { type: 'tool_call_dropped', payload: { name: 'nope', arguments: {}, strategy: null, reason: 'unknown_tool' } },
    ];
    expect(pathologiesOf(session(events), 0)).toEqual({
      'repair.tool_name_repaired': 1,
      'repair.tool_args_normalized': 1,
      'repair.tool_args_coerced': 1,
      'repair.tool_call_repaired': 2,
      'repair.tool_call_dropped': 1,
    });
  });

  it('puts a repaired call in the extraction_repair group the dashboards rate', () => {
    expect(REPAIR_EVENTS).toContain('tool_call_repaired');
    expect(PATHOLOGY_GROUPS.extraction_repair).toContain('repair.tool_call_repaired');
  });
});
