import { timestampCallIds } from './call-ids';

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
});
