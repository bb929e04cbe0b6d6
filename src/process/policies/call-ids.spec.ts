import { processUniqueCallIds, timestampCallIds } from './call-ids';

const call = (name: string) => ({ id: 'call_abc', name, arguments: {} });

describe('timestampCallIds (mcp-agent-technical-spec.md §5: call_${timestamp}_${index})', () => {
  it('names each call of a reply by the time and its index', () => {
    const { calls, timestamp } = timestampCallIds([call('read_file'), call('list_files')], 1_700_000_000_123);
    expect(calls.map((c) => c.id)).toEqual(['call_1700000000123_0', 'call_1700000000123_1']);
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'list_files']);
    expect(timestamp).toBe(1_700_000_000_123);
  });

  it('keeps names unique when two replies come within the same millisecond', () => {
    const first = timestampCallIds([call('a')], 5_000);
    const second = timestampCallIds([call('a')], 5_000, first.timestamp);
    expect(second.calls[0].id).toBe('call_5001_0');
  });
  it('never repeats a name across sessions of one process, even in the same millisecond', () => {
    const call = { id: 'x', name: 'write_file', arguments: {} };
    // two sessions naming their first reply's calls at the same moment (approvals are addressed by id process-wide)
    const a = processUniqueCallIds([call, call], 1_000);
    const b = processUniqueCallIds([call, call], 1_000);
    const ids = [...a, ...b].map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => /^call_\d+_\d$/.test(id))).toBe(true);
  });
});
