// dexto's turn executor, as context-management-plan.md plans it. Where the plan is silent the profile
// follows what shipped, per ../shared/reference/loop-control-prior-art.md §3.
import { RETRY_SCHEDULES } from '../../provider/ollama/retry-schedules';
import { charsPerTokenOf, harness, passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const CP = 'context-management-plan.md';
const PA = 'loop-control-prior-art.md';
const cp = states(CP);
const pa = states(PA);
const MISSING = 'Missing entirely: repeat or loop detection, stuck detection and nudges.';
const missing = pa('§3 What shipped', MISSING);
const PROTECT = 'const PRUNE_PROTECT = 40_000; // Keep last 40K tokens of tool outputs';
const KEEP = 'Keeps the last 2 turns (preserveLastNTurns)';
const NO_TRIM = 'compression and pruning only';
const noTrim = unused({ trimMaxMessages: 0, trimBudgetRatio: 0, trimBudgetTokens: 0 });
const noDetector = unused({ repeatThreshold: 0, cycleRepetitions: 0, errorRepeatThreshold: 0 });

export const dextoProfile: LoopProfile = {
  name: 'dexto',
  system: 'dexto (TurnExecutor)',
  specs: [CP, PA],
  settings: {
    maxToolIterations: [
      100,
      harness(
        passage(CP)('Proposed Architecture, loop step 5', 'if (stepCount >= maxSteps) break;'),
        'gemini-cli',
        "the plan names no value and what shipped has none (maxIterations is optional with no default); a harness run must end: gemini-cli's MAX_TURNS",
      ),
    ],
    capRecovery: [
      'none',
      cp('Open Questions', 'Grace period: Should we add recovery turn on timeout? (Gemini-CLI has 60s grace)', undefined, {
        note: 'asked, not planned',
      }),
    ],
    graceTurnMs: [0, unused({ capRecovery: 'none' })],
    repeatThreshold: [0, missing],
    repeatScope: ['session', noDetector],
    repeatCheck: ['after_run', noDetector],
    callKey: ['exact', noDetector],
    sameToolThreshold: [0, missing],
    cycleRepetitions: [0, missing],
    cycleMaxPeriod: [5, unused({ cycleRepetitions: 0 })],
    errorRepeatThreshold: [0, missing],
    contentLoopThreshold: [0, missing],
    doomLoop: ['break', unused({ repeatThreshold: 0, sameToolThreshold: 0, cycleRepetitions: 0, contentLoopThreshold: 0 })],
    loopNudges: [0, unused({ doomLoop: 'break' })],
    nudgePolicy: ['off', missing],
    maxNudges: [0, unused({ nudgePolicy: 'off' })],
    hallucinationGuard: ['off', silent(CP, 'off', 'no check of the text is planned')],
    maxMidChainNudges: [0, unused({ hallucinationGuard: 'off' })],
    epilogue: ['none', pa('§6 Feature matrix', '| Summary epilogue | max-steps.txt text-only wrap-up | none |')],
    queueInjection: [
      'one',
      cp('§4 MessageQueueService', 'const msg = this.queue.shift();', undefined, {
        also: [
          passage(CP)('Proposed Architecture, loop step 1', 'const newMsg = await messageQueue.dequeue();'),
          passage(CP)('§4 MessageQueueService', "this.eventBus.emit('message:dequeued', { id: msg.id });"),
        ],
      }),
    ],
    tokenEstimator: [
      'chars_per_4',
      cp('Token Counting Strategy', "return Math.max(0, Math.round((text || '').length / 4));", {
        text: '4',
        constant: charsPerTokenOf('chars_per_4'),
      }),
    ],
    trimMaxMessages: [0, silent(CP, 'off', NO_TRIM)],
    trimKeepRecent: [0, unused({ trimMaxMessages: 0 })],
    trimBudgetRatio: [0, silent(CP, 'off', NO_TRIM)],
    trimBudgetTokens: [0, silent(CP, 'off', NO_TRIM)],
    trimSummaries: [false, noTrim],
    toolResultCap: [
      'fixed_chars',
      pa('§3 What shipped', 'Tool output truncation: 120,000 chars, 2000 lines, 2000 chars per line (as planned).'),
    ],
    toolResultMaxChars: [
      120_000,
      pa('§3 What shipped', 'Tool output truncation: 120,000 chars, 2000 lines, 2000 chars per line (as planned).', '120,000'),
    ],
    toolResultCharsPerToken: [3, unused({ toolResultCap: 'fixed_chars' })],
    prune: ['fixed', cp("§3 Mark-Don't-Delete Pruning", PROTECT)],
    pruneProtectTokens: [40_000, cp("§3 Mark-Don't-Delete Pruning", PROTECT, '40_000')],
    pruneMinimumTokens: [
      20_000,
      cp("§3 Mark-Don't-Delete Pruning", 'const PRUNE_MINIMUM = 20_000; // Only prune if we can save 20K+', '20_000'),
    ],
    pruneKeepTurns: [0, pa('§3 Pruning', 'The last 2 turns are not protected.')],
    pruneProtectedTools: [[], pa('§3 Pruning', 'No tools are exempt.')],
    pruneAfter: [
      'tool_step',
      cp('Proposed Architecture, loop step 6', "// 6. PRUNE OLD TOOL OUTPUTS (mark, don't delete)", undefined, {
        note: 'after the termination check (step 5), so only after a step that ran tools',
        disagrees: {
          ...passage(PA)('§3 Pruning', "Pruning (l.2258): OpenCode's 40k/20k constants, run before every request."),
          why: 'the profile follows the plan; what shipped prunes before every request',
        },
      }),
    ],
    pruneCompletedOnly: [true, cp("§3 Mark-Don't-Delete Pruning", "if (tool.status !== 'completed') continue;")],
    overflowTrigger: ['reserved_output', cp('§2 isOverflow', 'return used > usable;')],
    overflowRatio: [0, unused({ overflowTrigger: 'reserved_output' })],
    outputReserve: [
      'max_output',
      cp('§2 isOverflow', 'const outputBuffer = Math.min(model.maxOutput, OUTPUT_TOKEN_MAX);', undefined, {
        note: "maxOutput is num_predict; OUTPUT_TOKEN_MAX (32,000, opencode's) is not given in any source here",
      }),
    ],
    overflowAction: ['compact', cp('Proposed Architecture, loop step 2', 'await compressHistory();')],
    compactionKeep: ['turns', pa('§3 Compaction', KEEP)],
    compactionKeepTurns: [2, pa('§3 Compaction', KEEP, '2')],
    compactionKeepShare: [0, unused({ compactionKeep: 'turns' })],
    compactionValidation: ['none', pa('§3 Compaction', "The plan's validate(before, after) inflation check was not shipped")],
    compactionBaseline: ['replaced_estimate', unused({ compactionValidation: 'none' })],
    preflight: [
      'off',
      cp('Changes from v1', 'Compression: Reactive (on overflow) using actual tokens, not percentage-based threshold', undefined, {
        disagrees: {
          ...passage(PA)('§3 Overflow', 'Pre-request: checked against an estimate'),
          why: 'the profile follows the plan (reactive only); what shipped also checks an estimate before the request',
        },
      }),
    ],
    providerOverflow: ['fail', pa('§3 Overflow', 'There is no handler for provider overflow errors.')],
    providerOverflowRetries: [2, unused({ providerOverflow: 'fail' })],
    retrySchedule: [
      'dexto',
      pa('§3 Retry', 'Retry: MODEL_REQUEST_MAX_RETRIES=2.', {
        text: '2',
        constant: { name: 'RETRY_SCHEDULES.dexto.maxRetries', value: RETRY_SCHEDULES.dexto.maxRetries },
      }),
    ],
    callIds: ['provider', silent(CP, 'loupe', "the SDK's tool-call ids are kept; as Loupe")],
    toolExecution: [
      'sequential',
      cp('Open Questions', 'Parallel tools: Sequential or parallel tool execution? (Currently sequential via SDK)'),
    ],
    onRejection: ['continue', silent(CP, 'corvid', 'the plan says nothing of a rejected call; as the direct-process spec')],
  },
  choices: {
    iterations: '100 (upstream: maxSteps, no default)',
    repeat: 'none',
    sameTool: 'none',
    cycle: 'none',
    errorRepeat: 'none',
    contentLoop: 'none',
    onLoop: '(nothing detects one)',
    nudges: 'none',
    hallucination: 'none: the text stays',
    epilogue: 'none',
    tokens: 'length / 4 for pruning; actual counts for overflow',
    trim: 'none',
    toolCap: '120,000 chars per result',
    prune:
      'after every step that ran tools: completed tool output older than the newest 40k tokens marked cleared, if that frees over 20k; failed output skipped; no turns or tools exempt',
    overflow: 'actual input tokens > window − min(num_predict, 32,000) → compress',
    compaction: 'LLM summary replaces older messages; last 2 turns kept; no validation',
    preflight: 'nothing',
    providerOverflow: 'fails the session',
    retry: '2 immediate retries of retryable errors, no delay',
    toolExecution: 'one after another',
    rejection: 'denial text to the model; the loop goes on',
    queue: 'one message per step (dequeue), journaled as user_message_dequeued with its id',
  },
};
