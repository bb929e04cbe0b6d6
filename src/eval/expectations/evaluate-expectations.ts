// Pure checks of a scenario's expectations (and success criteria) against what was recorded.
import { eventsOfType } from '../../journal/journal-events';
import type { CountSpec, Expectation } from '../scenario/scenario-schema';
import { describeCount, describeExpectation } from './describe-expectation';
import { payloadMatches } from './payload-match';
import { RegexBudgetError, regexTest } from './regex-budget';
import type { RecordedMessage, RecordedSession } from './recorded-session';
import { inWindow, matching, sessionRefs } from './select-events';
import { clip, textMismatch } from './text-match';

export { payloadMatches, describeExpectation };

export interface ExpectationResult {
  expectation: string;
  passed: boolean;
  detail?: string;
}

type Check = { passed: boolean; detail?: string };

function countOk(n: number, spec: CountSpec): boolean {
  if (typeof spec === 'number') return n === spec;
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
}

const ok = (passed: boolean, detail: () => string): Check => (passed ? { passed } : { passed, detail: detail() });

function checkEvents(e: Extract<Expectation, { event: string }>, s: RecordedSession): Check {
  if (e.occurrence !== undefined) {
    const nth = inWindow(
      s,
      s.events.filter((x) => x.type === e.event),
      e,
    )[e.occurrence - 1];
    const passed = nth !== undefined && (!e.with || payloadMatches(nth.payload, e.with, sessionRefs(s), nth.payload));
    return ok(passed, () =>
      nth ? `${e.event} #${e.occurrence} was ${JSON.stringify(nth.payload)}` : `fewer than ${e.occurrence} ${e.event} events`,
    );
  }
  const hits = inWindow(s, matching(s, e.event, e.with), e);
  const passed = e.count !== undefined ? countOk(hits.length, e.count) : hits.length > 0;
  const sameType = s.events.filter((x) => x.type === e.event).map((x) => JSON.stringify(x.payload));
  return ok(passed, () => `found ${hits.length} matching; ${e.event} payloads recorded: ${sameType.slice(0, 3).join(' | ') || 'none'}`);
}

function selectMessages(m: Extract<Expectation, { message: object }>['message'], s: RecordedSession): RecordedMessage[] {
  const last = s.messages[s.messages.length - 1];
  return s.messages.filter(
    (x) =>
      (!m.role || x.role === m.role) &&
      (!m.kind || x.kind === m.kind) &&
      (m.contains === undefined || x.content.includes(m.contains)) &&
      (m.equals === undefined || x.content === m.equals) &&
      (m.regex === undefined || regexTest(m.regex, x.content)) &&
      (m.compacted === undefined || x.compacted === m.compacted) &&
      (m.iteration === undefined || x.iteration === m.iteration) &&
      (m.tool === undefined || x.toolName === m.tool) &&
      (m.position === undefined || x.index === m.position) &&
      (!m.last || x === last),
  );
}

function check(e: Expectation, s: RecordedSession): Check {
  if ('event' in e) return checkEvents(e, s);
  if ('no_event' in e) {
    const hits = inWindow(s, matching(s, e.no_event, e.with), e);
    return ok(hits.length === 0, () => `recorded ${hits.length}: ${JSON.stringify(hits[0].payload)}`);
  }
  if ('host_event' in e) {
    const n = s.hostEvents.filter((ev) => ev.type === e.host_event && (!e.with || payloadMatches(ev.payload, e.with))).length;
    const sameType = s.hostEvents.filter((ev) => ev.type === e.host_event).map((ev) => JSON.stringify(ev.payload));
    return ok(
      e.count !== undefined ? countOk(n, e.count) : n > 0,
      () => `found ${n} matching; ${e.host_event} payloads recorded for this trial's host: ${sameType.slice(0, 3).join(' | ') || 'none'}`,
    );
  }
  if ('termination' in e) return ok(s.terminationReason === e.termination, () => `terminated with ${s.terminationReason ?? '(none)'}`);
  if ('final_answer' in e) {
    const why = textMismatch(s.finalAnswer, e.final_answer);
    return ok(!why, () => `final answer ${clip(s.finalAnswer)} ${why}`);
  }
  if ('final_answer_contains' in e)
    return ok(s.finalAnswer.includes(e.final_answer_contains), () => `final answer was ${clip(s.finalAnswer)}`);
  if ('final_answer_not_contains' in e)
    return ok(!s.finalAnswer.includes(e.final_answer_not_contains), () => `final answer was ${clip(s.finalAnswer)}`);
  if ('file' in e) {
    const content = s.files[e.file];
    if (e.exists === false) return ok(content === undefined, () => 'file exists');
    if (content === undefined) return { passed: false, detail: 'file does not exist' };
    const why = textMismatch(content, { equals: e.equals, contains: e.contains, regex: e.regex });
    return ok(!why, () => `content ${clip(content)} ${why}`);
  }
  if ('iterations' in e) return ok(countOk(s.iterations, e.iterations), () => `ran ${s.iterations} iterations`);
  if ('tool_calls' in e) return ok(countOk(s.toolCallCount, e.tool_calls), () => `made ${s.toolCallCount} tool calls`);
  const called = new Set(eventsOfType(s.events, 'tool_call').map((x) => x.payload.name));
  if ('tools_used' in e) {
    const missing = e.tools_used.filter((t) => !called.has(t));
    return ok(missing.length === 0, () => `never called ${missing.join(', ')} (called: ${[...called].join(', ') || 'none'})`);
  }
  if ('tools_not_used' in e) {
    const used = e.tools_not_used.filter((t) => called.has(t));
    return ok(used.length === 0, () => `called ${used.join(', ')}`);
  }
  if ('requests' in e) {
    if (!s.requests) return { passed: false, detail: 'requests are known only on the stand-in (scripted runs)' };
    return ok(
      countOk(s.requests.length, e.requests),
      () => `the model got ${s.requests!.length} requests (want ${describeCount(e.requests)})`,
    );
  }
  if ('request' in e) {
    if (!s.requests) return { passed: false, detail: 'requests are known only on the stand-in (scripted runs)' };
    const r = e.request === 'last' ? s.requests[s.requests.length - 1] : s.requests[e.request - 1];
    if (!r) return { passed: false, detail: `the model got ${s.requests.length} request(s)` };
    const all = r.contents.join('\n');
    if (e.roles && JSON.stringify(r.roles) !== JSON.stringify(e.roles)) return { passed: false, detail: `roles were ${r.roles.join(',')}` };
    if (e.contains !== undefined && !all.includes(e.contains)) return { passed: false, detail: `no message contains ${clip(e.contains)}` };
    if (e.not_contains !== undefined && all.includes(e.not_contains))
      return { passed: false, detail: `a message contains ${clip(e.not_contains)}` };
    if (e.tools && JSON.stringify([...r.tools].sort()) !== JSON.stringify([...e.tools].sort()))
      return { passed: false, detail: `tools offered were [${r.tools.join(', ')}]` };
    if (e.options && !payloadMatches(r.options, e.options)) return { passed: false, detail: `options were ${JSON.stringify(r.options)}` };
    return { passed: true };
  }
  const hits = selectMessages(e.message, s);
  const passed = e.absent ? hits.length === 0 : e.count !== undefined ? countOk(hits.length, e.count) : hits.length > 0;
  if (passed) return { passed };
  if (e.absent) return { passed, detail: `found in message: ${clip(hits[0].content)}` };
  return { passed, detail: `${hits.length} matching message(s)` };
}

/** A regex that overran its budget fails its own check, with why; the other checks are judged as usual. */
function checkWithin(e: Expectation, s: RecordedSession): Check {
  try {
    return check(e, s);
  } catch (error) {
    if (error instanceof RegexBudgetError) return { passed: false, detail: error.message };
    throw error;
  }
}

export function evaluateExpectations(expectations: readonly Expectation[], session: RecordedSession): ExpectationResult[] {
  return expectations.map((e) => ({ expectation: describeExpectation(e), ...checkWithin(e, session) }));
}

/** Workspace files the expectations look at (read from disk by the runner before evaluating). */
export function filesNamed(expectations: readonly Expectation[]): string[] {
  return expectations.flatMap((e) => ('file' in e ? [e.file] : []));
}
