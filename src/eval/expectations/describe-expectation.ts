// Expectations in words, for reports: "event tool_result with {…} (count 2) is recorded".
import type { CountSpec, Expectation } from '../scenario/scenario-schema';
import { describeRef } from './select-events';
import { describeTextMatch } from './text-match';

export function describeCount(spec: CountSpec): string {
  if (typeof spec === 'number') return `${spec}`;
  return [spec.min !== undefined ? `>= ${spec.min}` : '', spec.max !== undefined ? `<= ${spec.max}` : ''].filter(Boolean).join(' and ');
}

const w = (x?: Record<string, unknown>) => (x ? ` with ${JSON.stringify(x)}` : '');

function order(e: { after?: Parameters<typeof describeRef>[0]; before?: Parameters<typeof describeRef>[0] }): string {
  return `${e.after ? ` after ${describeRef(e.after)}` : ''}${e.before ? ` before ${describeRef(e.before)}` : ''}`;
}

export function describeExpectation(e: Expectation): string {
  if ('event' in e) {
    const which = e.occurrence ? ` #${e.occurrence}` : '';
    return `event ${e.event}${which}${w(e.with)}${order(e)}${e.count !== undefined ? ` (count ${describeCount(e.count)})` : ''} is recorded`;
  }
  if ('no_event' in e) return `no event ${e.no_event}${w(e.with)}${order(e)} is recorded`;
  if ('host_event' in e)
    return `host event ${e.host_event}${w(e.with)}${e.count !== undefined ? ` (count ${describeCount(e.count)})` : ''} is recorded`;
  if ('termination' in e) return `session terminates with ${e.termination}`;
  if ('final_answer' in e) return `final answer ${describeTextMatch(e.final_answer)}`;
  if ('final_answer_contains' in e) return `final answer contains ${JSON.stringify(e.final_answer_contains)}`;
  if ('final_answer_not_contains' in e) return `final answer does not contain ${JSON.stringify(e.final_answer_not_contains)}`;
  if ('file' in e) {
    if (e.exists === false) return `file ${e.file} does not exist`;
    const text = describeTextMatch({ equals: e.equals, contains: e.contains, regex: e.regex });
    return `file ${e.file} ${text || 'exists'}`;
  }
  if ('iterations' in e) return `iterations ${describeCount(e.iterations)}`;
  if ('tool_calls' in e) return `tool calls ${describeCount(e.tool_calls)}`;
  if ('tools_used' in e) return `tools used: ${e.tools_used.join(', ')}`;
  if ('tools_not_used' in e) return `tools not used: ${e.tools_not_used.join(', ')}`;
  if ('request' in e) {
    const parts = [
      e.roles ? `roles ${e.roles.join(',')}` : '',
      e.contains !== undefined ? `contains ${JSON.stringify(e.contains)}` : '',
      e.not_contains !== undefined ? `does not contain ${JSON.stringify(e.not_contains)}` : '',
      e.tools ? `tools [${e.tools.join(', ')}]` : '',
      e.options ? `options ${JSON.stringify(e.options)}` : '',
    ].filter(Boolean);
    return `request ${e.request} to the model: ${parts.join(', ') || 'was made'}`;
  }
  if ('requests' in e) return `requests to the model ${describeCount(e.requests)}`;
  return `${e.absent ? 'no' : e.count !== undefined ? `${describeCount(e.count)}` : 'a'} message${w(e.message)} in the transcript`;
}
