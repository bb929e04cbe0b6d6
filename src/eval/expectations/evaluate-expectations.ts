// Pure checks of a scenario's expectations against what was recorded.
import type { CountSpec, Expectation } from '../scenario/scenario-schema';
import { payloadMatches } from './payload-match';
import type { RecordedSession } from './recorded-session';

export { payloadMatches };

export interface ExpectationResult {
  expectation: string;
  passed: boolean;
  detail?: string;
}

function countOk(n: number, spec: CountSpec): boolean {
  if (typeof spec === 'number') return n === spec;
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
}

function describeCount(spec: CountSpec): string {
  if (typeof spec === 'number') return `${spec}`;
  return [spec.min !== undefined ? `>= ${spec.min}` : '', spec.max !== undefined ? `<= ${spec.max}` : ''].filter(Boolean).join(' and ');
}

export function describeExpectation(e: Expectation): string {
  const w = (x?: Record<string, unknown>) => (x ? ` with ${JSON.stringify(x)}` : '');
  if ('event' in e) return `event ${e.event}${w(e.with)}${e.count !== undefined ? ` (count ${describeCount(e.count)})` : ''} is recorded`;
  if ('no_event' in e) return `no event ${e.no_event}${w(e.with)} is recorded`;
  if ('host_event' in e) return `host event ${e.host_event}${w(e.with)}${e.count !== undefined ? ` (count ${describeCount(e.count)})` : ''} is recorded`;
  if ('termination' in e) return `session terminates with ${e.termination}`;
  if ('final_answer_contains' in e) return `final answer contains ${JSON.stringify(e.final_answer_contains)}`;
  if ('final_answer_not_contains' in e) return `final answer does not contain ${JSON.stringify(e.final_answer_not_contains)}`;
  if ('file' in e) {
    if (e.exists === false) return `file ${e.file} does not exist`;
    if (e.equals !== undefined) return `file ${e.file} equals ${JSON.stringify(e.equals)}`;
    if (e.contains !== undefined) return `file ${e.file} contains ${JSON.stringify(e.contains)}`;
    return `file ${e.file} exists`;
  }
  if ('iterations' in e) return `iterations ${describeCount(e.iterations)}`;
  if ('tool_calls' in e) return `tool calls ${describeCount(e.tool_calls)}`;
  return `${e.absent ? 'no' : e.count !== undefined ? `${describeCount(e.count)}` : 'a'} message${w(e.message)} in the transcript`;
}

function check(e: Expectation, s: RecordedSession): { passed: boolean; detail?: string } {
  if ('event' in e) {
    const n = s.events.filter((ev) => ev.type === e.event && (!e.with || payloadMatches(ev.payload, e.with))).length;
    const passed = e.count !== undefined ? countOk(n, e.count) : n > 0;
    const sameType = s.events.filter((ev) => ev.type === e.event).map((ev) => JSON.stringify(ev.payload));
    return { passed, detail: passed ? undefined : `found ${n} matching; ${e.event} payloads recorded: ${sameType.slice(0, 3).join(' | ') || 'none'}` };
  }
  if ('host_event' in e) {
    const n = s.hostEvents.filter((ev) => ev.type === e.host_event && (!e.with || payloadMatches(ev.payload, e.with))).length;
    const passed = e.count !== undefined ? countOk(n, e.count) : n > 0;
    const sameType = s.hostEvents.filter((ev) => ev.type === e.host_event).map((ev) => JSON.stringify(ev.payload));
    return { passed, detail: passed ? undefined : `found ${n} matching; ${e.host_event} payloads recorded for this trial's host: ${sameType.slice(0, 3).join(' | ') || 'none'}` };
  }
  if ('no_event' in e) {
    const hits = s.events.filter((ev) => ev.type === e.no_event && (!e.with || payloadMatches(ev.payload, e.with)));
    return { passed: hits.length === 0, detail: hits.length ? `recorded ${hits.length}: ${JSON.stringify(hits[0].payload)}` : undefined };
  }
  if ('termination' in e) {
    const passed = s.terminationReason === e.termination;
    return { passed, detail: passed ? undefined : `terminated with ${s.terminationReason ?? '(none)'}` };
  }
  if ('final_answer_contains' in e) {
    const passed = s.finalAnswer.includes(e.final_answer_contains);
    return { passed, detail: passed ? undefined : `final answer was ${JSON.stringify(s.finalAnswer.slice(0, 200))}` };
  }
  if ('final_answer_not_contains' in e) {
    const passed = !s.finalAnswer.includes(e.final_answer_not_contains);
    return { passed, detail: passed ? undefined : `final answer was ${JSON.stringify(s.finalAnswer.slice(0, 200))}` };
  }
  if ('file' in e) {
    const content = s.files[e.file];
    if (e.exists === false) return { passed: content === undefined, detail: content === undefined ? undefined : 'file exists' };
    if (content === undefined) return { passed: false, detail: 'file does not exist' };
    if (e.equals !== undefined && content !== e.equals) return { passed: false, detail: `content was ${JSON.stringify(content.slice(0, 200))}` };
    if (e.contains !== undefined && !content.includes(e.contains)) return { passed: false, detail: `content was ${JSON.stringify(content.slice(0, 200))}` };
    return { passed: true };
  }
  if ('iterations' in e) {
    const passed = countOk(s.iterations, e.iterations);
    return { passed, detail: passed ? undefined : `ran ${s.iterations} iterations` };
  }
  if ('tool_calls' in e) {
    const passed = countOk(s.toolCallCount, e.tool_calls);
    return { passed, detail: passed ? undefined : `made ${s.toolCallCount} tool calls` };
  }
  const m = e.message;
  const hits = s.messages.filter((x) => (!m.role || x.role === m.role) && (!m.kind || x.kind === m.kind)
    && (m.contains === undefined || x.content.includes(m.contains)) && (m.compacted === undefined || x.compacted === m.compacted));
  const passed = e.absent ? hits.length === 0 : e.count !== undefined ? countOk(hits.length, e.count) : hits.length > 0;
  if (passed) return { passed };
  if (e.absent) return { passed, detail: `found in message: ${JSON.stringify(hits[0].content.slice(0, 200))}` };
  return { passed, detail: `${hits.length} matching message(s)` };
}

export function evaluateExpectations(expectations: Expectation[], session: RecordedSession): ExpectationResult[] {
  return expectations.map((e) => ({ expectation: describeExpectation(e), ...check(e, session) }));
}

/** Workspace files the expectations look at (read from disk by the runner before evaluating). */
export function filesNamed(expectations: Expectation[]): string[] {
  return expectations.flatMap((e) => ('file' in e ? [e.file] : []));
}
