import type { CallRecord } from './call-record';
import { MAX_SAME_TOOL, SAME_TOOL_BREAK_THRESHOLD, detectSameTool } from './same-tool-detector';

const history = (...specs: Array<[string, Record<string, unknown>?, Partial<CallRecord>?]>): CallRecord[] =>
  specs.map(([name, args = {}, extra = {}], i) => ({ iteration: i + 1, name, arguments: args, ...extra }));
const C: [string, Record<string, unknown>] = ['list_files', { dir: 'src' }];

const read = (path: string): [string, Record<string, unknown>] => ['read_file', { path }];

describe('detectSameTool', () => {
  it('uses the spec constants: MAX_SAME_TOOL = 4, break on the 5th call of one tool', () => {
    expect(MAX_SAME_TOOL).toBe(4);
    expect(SAME_TOOL_BREAK_THRESHOLD).toBe(5);
  });

  const five = history(read('1'), read('2'), read('3'), read('4'), read('5'));
  const six = history(C, read('1'), read('2'), read('3'), read('4'), read('5'), read('6'));
  it.each<{ name: string; calls: CallRecord[]; threshold?: number; expected: unknown }>([
    {
      name: 'breaks on five consecutive calls of one tool with different arguments',
      calls: five,
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 5, calls: five },
    },
    { name: 'does not break on four', calls: five.slice(1), expected: null },
    {
      name: 'does not break when another tool interrupts the run',
      calls: history(read('1'), read('2'), C, read('3'), read('4'), read('5')),
      expected: null,
    },
    {
      name: 'counts only the run at the end',
      calls: six,
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 6, calls: six.slice(1) },
    },
    {
      name: 'honours a custom threshold',
      calls: five.slice(0, 3),
      threshold: 3,
      expected: { kind: 'same_tool_break', toolName: 'read_file', count: 3, calls: five.slice(0, 3) },
    },
    { name: 'does nothing on an empty history', calls: [], expected: null },
  ])('$name', ({ calls, threshold, expected }) => {
    expect(detectSameTool(calls, threshold)).toEqual(expected);
  });
});
