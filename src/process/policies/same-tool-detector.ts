import type { CallRecord } from './call-record';

/** Spec constants table: MAX_SAME_TOOL = 4, so the 5th consecutive call of one tool breaks. */
export const MAX_SAME_TOOL = 4;
export const SAME_TOOL_BREAK_THRESHOLD = MAX_SAME_TOOL + 1;

export interface SameToolBreak {
  kind: 'same_tool_break';
  toolName: string;
  count: number;
  calls: CallRecord[];
}

/** The latest `threshold` calls use one tool, whatever their arguments (spec invariant 4). */
export function detectSameTool(history: readonly CallRecord[], threshold = SAME_TOOL_BREAK_THRESHOLD): SameToolBreak | null {
  if (history.length === 0) return null;
  const toolName = history[history.length - 1].name;
  let start = history.length - 1;
  while (start > 0 && history[start - 1].name === toolName) start--;
  const count = history.length - start;
  return count >= threshold ? { kind: 'same_tool_break', toolName, count, calls: history.slice(start) } : null;
}
