// Every setting the loop runs under, with the one set of defaults. Each default is the spec's
// constant (cited where it is defined); the environment, a scenario's `config:` or an API caller
// override them, and the session records what it resolved to.
import { CYCLE_REPETITIONS } from './cycle-detector';
import { ERROR_REPEAT_THRESHOLD } from './error-repeat-detector';
import { MAX_MID_CHAIN_NUDGES } from './hallucination-detector';
import { MAX_TOOL_ITERATIONS } from './max-iterations';
import { MAX_NUDGES } from './nudge-policy';
import { REPEAT_BREAK_THRESHOLD } from './repeat-detector';
import { SAME_TOOL_BREAK_THRESHOLD } from './same-tool-detector';

export interface LoopSettings {
  /** direct-process.spec.md invariant 2 */
  maxToolIterations: number;
  /** the context window budgets are computed from (direct-process.spec.md, OLLAMA_NUM_CTX) */
  numCtx: number;
  /** per tool call (mcp-agent-technical-spec.md §6: 30 s) */
  toolTimeoutMs: number;
  /** direct-process.spec.md invariants 3 and 4; cycle and repeated-error detection are Loupe's */
  repeatThreshold: number;
  sameToolThreshold: number;
  cycleRepetitions: number;
  errorRepeatThreshold: number;
  /** direct-process.spec.md invariant 7 */
  maxNudges: number;
  maxMidChainNudges: number;
  /** an `ask` that gets no decision in this long counts as rejected (mcp-agent-technical-spec.md §5 asks; Loupe bounds the wait) */
  approvalTimeoutMs: number;
  /** a rejected call: tell the model and go on (direct-process.spec.md "Permission denied"), or stop (stream-processor: blocked → stop) */
  onRejection: 'continue' | 'stop';
  /** a repeated call: break (direct-process.spec.md invariant 3), or ask for permission to go on (opencode's doom_loop permission) */
  doomLoop: 'break' | 'ask';
  /** approved calls of one reply: all at once, settled one by one (mcp-agent §5), or one after another */
  toolExecution: 'parallel' | 'sequential';
}

/** ollama-provider.spec.md / direct-process.spec.md: OLLAMA_NUM_CTX defaults to 8192. */
export const DEFAULT_NUM_CTX = 8192;

/** mcp-agent-technical-spec.md §6: execute_command has a 30 s timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** How long a session waits for a person's approval before counting it as rejected. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

export const DEFAULT_LOOP_SETTINGS: Readonly<LoopSettings> = {
  maxToolIterations: MAX_TOOL_ITERATIONS,
  numCtx: DEFAULT_NUM_CTX,
  toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  repeatThreshold: REPEAT_BREAK_THRESHOLD,
  sameToolThreshold: SAME_TOOL_BREAK_THRESHOLD,
  cycleRepetitions: CYCLE_REPETITIONS,
  errorRepeatThreshold: ERROR_REPEAT_THRESHOLD,
  maxNudges: MAX_NUDGES,
  maxMidChainNudges: MAX_MID_CHAIN_NUDGES,
  approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
  onRejection: 'continue',
  doomLoop: 'break',
  toolExecution: 'parallel',
};

/** The defaults overridden by each layer in turn; an undefined value overrides nothing. */
export function resolveLoopSettings(...layers: Array<Partial<LoopSettings> | undefined>): LoopSettings {
  const settings: LoopSettings = { ...DEFAULT_LOOP_SETTINGS };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined) (settings as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}
