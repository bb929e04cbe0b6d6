// The MCP agent of mcp-agent-technical-spec.md: history truncated by tokens and messages, a pre-flight
// check that clears the history on overflow, approvals one by one and approved calls in parallel.
import { charsPerTokenOf, harness, passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const MA = 'mcp-agent-technical-spec.md';
const ma = states(MA);
const NONE = 'the spec specifies none';
const none = silent(MA, 'off', NONE);
const HISTORY = 'Stores message history with token-aware truncation (default: 30k tokens, max 50 messages)';
const OVERFLOW_ROW = '| Context Window Overflow | Pre-flight check in MCPAgent | Clears history and retries with fresh context. |';
const noDetector = unused({ repeatThreshold: 0, cycleRepetitions: 0, errorRepeatThreshold: 0 });
const noCap = unused({ toolResultCap: 'off' });
const unpruned = unused({ prune: 'off' });
const noCompaction = unused({ overflowAction: 'clear_history', providerOverflow: 'clear_history' });

export const mcpAgentProfile: LoopProfile = {
  name: 'mcp-agent',
  system: 'the MCP agent (MCPAgent)',
  specs: [MA],
  settings: {
    maxToolIterations: [
      100,
      harness(
        passage(MA)('§5 Workflow step 5', 'Supports recursive tool calling (LLM can request more tools based on results)'),
        'gemini-cli',
        "no limit is named; a harness run must end: gemini-cli's MAX_TURNS",
      ),
    ],
    capRecovery: ['none', none],
    graceTurnMs: [0, unused({ capRecovery: 'none' })],
    repeatThreshold: [0, none],
    repeatScope: ['session', noDetector],
    repeatCheck: ['after_run', noDetector],
    callKey: ['exact', noDetector],
    sameToolThreshold: [0, none],
    cycleRepetitions: [0, none],
    cycleMaxPeriod: [5, unused({ cycleRepetitions: 0 })],
    errorRepeatThreshold: [0, none],
    contentLoopThreshold: [0, none],
    doomLoop: ['break', unused({ repeatThreshold: 0, sameToolThreshold: 0, cycleRepetitions: 0, contentLoopThreshold: 0 })],
    loopNudges: [0, unused({ doomLoop: 'break' })],
    nudgePolicy: ['off', none],
    maxNudges: [0, unused({ nudgePolicy: 'off' })],
    hallucinationGuard: ['off', none],
    maxMidChainNudges: [0, unused({ hallucinationGuard: 'off' })],
    epilogue: ['none', none],
    queueInjection: ['all', silent(MA, 'loupe', 'the spec says nothing of messages sent mid-loop; as Loupe')],
    tokenEstimator: [
      'chars_per_4',
      ma('§8 History Load', 'Token estimation uses character-based heuristic (1 token ≈ 4 characters).', {
        text: '4',
        constant: charsPerTokenOf('chars_per_4'),
      }),
    ],
    trimMaxMessages: [50, ma('§2 ConversationRepository', HISTORY, '50')],
    trimKeepRecent: [
      48,
      ma('§2 ConversationRepository', HISTORY, {
        text: '50',
        offset: -2,
        why: 'the system prompt and the task are kept besides the newest messages',
      }),
    ],
    trimBudgetRatio: [0, silent(MA, 'off', 'the history budget is absolute, not a share of the window')],
    trimBudgetTokens: [
      30_000,
      ma('§3 Token Configuration', 'MAX_HISTORY_TOKENS: Controls conversation history size (default: 30000 tokens)', '30000'),
    ],
    trimSummaries: [false, silent(MA, 'off', 'truncation leaves nothing in place of what it drops')],
    toolResultCap: ['off', none],
    toolResultMaxChars: [0, noCap],
    toolResultCharsPerToken: [3, noCap],
    prune: ['off', none],
    pruneProtectTokens: [0, unpruned],
    pruneMinimumTokens: [0, unpruned],
    pruneKeepTurns: [0, unpruned],
    pruneProtectedTools: [[], unpruned],
    pruneAfter: ['each_request', unpruned],
    pruneCompletedOnly: [false, unpruned],
    overflowTrigger: ['off', silent(MA, 'off', 'the window is checked before sending instead (§4)')],
    overflowRatio: [0, unused({ overflowTrigger: 'off' })],
    outputReserve: ['window_quarter', unused({ overflowTrigger: 'off' })],
    overflowAction: ['clear_history', ma('§4 Error Matrix', OVERFLOW_ROW)],
    compactionKeep: ['turns', noCompaction],
    compactionKeepTurns: [0, noCompaction],
    compactionKeepShare: [0, noCompaction],
    compactionValidation: ['none', noCompaction],
    compactionBaseline: ['replaced_estimate', unused({ compactionValidation: 'none' })],
    preflight: [
      'clear_history',
      ma('§4 Error Matrix', OVERFLOW_ROW, undefined, {
        also: [passage(MA)('§8 Token Budget Management', 'Total input tokens (history + tools + prompt) validated before LLM call.')],
      }),
    ],
    providerOverflow: [
      'clear_history',
      ma('§4 Error Matrix', OVERFLOW_ROW, undefined, {
        note: "the matrix names the pre-flight check; a server's rejection is met the same way",
      }),
    ],
    providerOverflowRetries: [2, silent(MA, 'loupe', 'the spec does not bound the retries of one call; as Loupe')],
    retrySchedule: ['none', silent(MA, 'off', 'no retry in the error matrix (§4): a provider failure goes to the client')],
    callIds: ['timestamp_index', ma('§5 Workflow step 1', 'Each assigned unique ID: call_${timestamp}_${index}')],
    toolExecution: [
      'parallel',
      ma('§5 Workflow step 4', 'Uses Promise.allSettled for concurrent execution', undefined, {
        also: [passage(MA)('§5 Workflow step 2', 'Updates tool status: pending → approved or rejected')],
      }),
    ],
    onRejection: ['continue', ma('§5 Workflow step 2', "Rejected tools are skipped but don't block remaining tools")],
  },
  choices: {
    iterations: '100',
    repeat: 'none',
    sameTool: 'none',
    cycle: 'none',
    errorRepeat: 'none',
    contentLoop: 'none',
    onLoop: '(nothing detects one)',
    nudges: 'none',
    hallucination: 'none: the text stays',
    epilogue: 'none',
    tokens: '1 token ≈ 4 characters',
    trim: 'history kept to the newest 30k tokens and 50 messages in all (system prompt and task kept); nothing left in their place',
    toolCap: 'none',
    prune: 'none',
    overflow: 'none (checked before sending instead)',
    compaction: 'none (optional gzip of stored history only)',
    preflight: 'history + tools + prompt estimated before each call; over the window → history cleared, sent with a fresh context',
    providerOverflow: 'clear the history and retry',
    retry: 'none: a provider failure goes to the client',
    toolExecution:
      'calls named call_${timestamp}_${index}; approvals one at a time, then all approved calls at once (Promise.allSettled), results in call order',
    rejection: 'that call is skipped; the others run; the loop goes on',
    queue: 'all queued messages before the next step',
  },
};
