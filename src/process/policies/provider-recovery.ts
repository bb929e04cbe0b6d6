// What the loop does when a model call fails: the direct-process spec's recoverable errors.
// "Tool unsupported by model": tools off for the session, retry without them. A context the server
// rejects as too long: compact (or trim), or clear the history (the MCP agent), and retry — or fail,
// as the profile says. Anything else ends the session.
import type { ProviderErrorInfo } from '../../provider/provider-errors';

export type ProviderRecovery = 'disable_tools' | 'compact' | 'clear_history' | 'fail';

/** Recoveries per model call before the error stands (a second rejection after compacting is final). */
export const MAX_RECOVERIES_PER_CALL = 2;

/** providerOverflow: what the session's profile does with a context the server rejects (default: compact). */
export function recoverFromProviderError(
  error: ProviderErrorInfo,
  state: {
    recoveriesSoFar: number;
    toolsEnabled: boolean;
    providerOverflow?: 'compact' | 'clear_history' | 'fail';
    /** overflow recoveries allowed per call (corvid: summarize and "retry once", corvid-agent notes §2.2 step 2) */
    overflowRetries?: number;
  },
): ProviderRecovery {
  if (state.recoveriesSoFar >= MAX_RECOVERIES_PER_CALL) return 'fail';
  if (error.kind === 'tools_unsupported' && state.toolsEnabled) return 'disable_tools';
  if (error.kind === 'context_too_long') {
    if (state.recoveriesSoFar >= (state.overflowRetries ?? MAX_RECOVERIES_PER_CALL)) return 'fail';
    return state.providerOverflow ?? 'compact';
  }
  return 'fail';
}
