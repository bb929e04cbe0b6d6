// opencode's session processor, as stream-processor-deep-dive.md describes it. Where it is silent the
// profile follows the survey of opencode in ../shared/reference/loop-control-prior-art.md §1.
import { RETRY_SCHEDULES } from '../../provider/ollama/retry-schedules';
import { charsPerTokenOf, harness, passage, silent, states, unused } from './citations';
import type { LoopProfile } from './loop-profile';

const SP = 'stream-processor-deep-dive.md';
const PA = 'loop-control-prior-art.md';
const sp = states(SP);
const pa = states(PA);
const FINISH = 'const threshold = input.model.limit.context * 0.9 // 90% full';
const PRUNE_CONSTANTS = 'Constants: PRUNE_MINIMUM = 20_000, PRUNE_PROTECT = 40_000, PRUNE_PROTECTED_TOOLS = ["skill"].';
const TAIL = 'The last 2 turns are kept verbatim if they fit clamp(floor(usable·0.25), 2k, 8k).';
const NO_TRIM = 'compaction instead of trimming (the "compact" signal)';
const noTrim = unused({ trimMaxMessages: 0, trimBudgetRatio: 0, trimBudgetTokens: 0 });
const noCap = unused({ toolResultCap: 'off' });
const unpruned = unused({ prune: 'off' });

export const opencodeProfile: LoopProfile = {
  name: 'opencode',
  system: 'opencode (SessionProcessor)',
  specs: [SP, PA],
  settings: {
    maxToolIterations: [
      100,
      harness(
        passage(PA)('§1 Outer loop', 'maxSteps = agent.steps ?? Infinity, so there is no cap by default.'),
        'gemini-cli',
        "a harness run must end: the largest cap among the systems described (gemini-cli's MAX_TURNS)",
      ),
    ],
    capRecovery: ['none', silent(SP, 'off', "upstream's max-steps prompt applies only at a configured agent.steps")],
    graceTurnMs: [0, unused({ capRecovery: 'none' })],
    repeatThreshold: [3, sp('The Processor Interface', 'const DOOM_LOOP_THRESHOLD = 3', '3')],
    repeatScope: [
      'reply',
      pa('§1 Doom loop, known gaps', 'The window is only the current message', undefined, {
        also: [passage(SP)('Tool Call', 'const parts = await MessageV2.parts(input.assistantMessage.id)')],
      }),
    ],
    repeatCheck: [
      'after_run',
      sp('Tool Call', 'Doom loop detected! Ask user', undefined, {
        note: 'the ask comes before the third call runs, through the approval step; nothing breaks before a call runs',
      }),
    ],
    callKey: ['exact', sp('Tool Call', 'JSON.stringify(p.state.input) === JSON.stringify(value.input)')],
    sameToolThreshold: [0, silent(SP, 'off', 'no same-tool detector (#32187 requests one)')],
    cycleRepetitions: [0, pa('§1 Doom loop, known gaps', 'It misses A,B,A,B cycles (#47759; PRs #47797 and #47845).')],
    cycleMaxPeriod: [5, unused({ cycleRepetitions: 0 })],
    errorRepeatThreshold: [0, silent(SP, 'off', 'no repeated-error detector')],
    contentLoopThreshold: [0, pa('§1 Doom loop', 'There is no content-loop detector and no nudge.')],
    doomLoop: [
      'ask',
      sp(
        'Tool Call',
        'Doom loop detection: If the same tool is called 3+ times with identical input, ask the user for permission to continue.',
      ),
    ],
    loopNudges: [0, unused({ doomLoop: 'ask' })],
    nudgePolicy: ['off', pa('§1 Doom loop', 'There is no content-loop detector and no nudge.')],
    maxNudges: [0, unused({ nudgePolicy: 'off' })],
    hallucinationGuard: [
      'off',
      pa('§6 Feature matrix', '| Hallucinated tool-output detection | none (bad calls repaired to invalid tool) |'),
    ],
    maxMidChainNudges: [0, unused({ hallucinationGuard: 'off' })],
    epilogue: ['none', silent(SP, 'off', "upstream's max-steps prompt applies only at a configured agent.steps")],
    queueInjection: ['all', pa('§1 Outer loop', 'When step > 1, user text parts newer than lastFinished are rewritten as')],
    tokenEstimator: [
      'chars_per_4',
      pa('§1 Prune', 'It sums Token.estimate(output) (chars/4).', { text: '4', constant: charsPerTokenOf('chars_per_4') }),
    ],
    trimMaxMessages: [0, silent(SP, 'off', NO_TRIM)],
    trimKeepRecent: [0, unused({ trimMaxMessages: 0 })],
    trimBudgetRatio: [0, silent(SP, 'off', NO_TRIM)],
    trimBudgetTokens: [0, silent(SP, 'off', NO_TRIM)],
    trimSummaries: [false, noTrim],
    toolResultCap: ['off', silent(SP, 'off', 'no cap on one result')],
    toolResultMaxChars: [0, noCap],
    toolResultCharsPerToken: [3, noCap],
    prune: ['off', pa('§1 Prune', 'Pruning is opt-in in current dev')],
    pruneProtectTokens: [40_000, pa('§1 Prune', PRUNE_CONSTANTS, '40_000', { note: 'when pruning is enabled' })],
    pruneMinimumTokens: [20_000, pa('§1 Prune', PRUNE_CONSTANTS, '20_000', { note: 'when pruning is enabled' })],
    pruneKeepTurns: [2, pa('§1 Prune', 'It goes backwards and skips the last 2 user turns.', '2')],
    pruneProtectedTools: [['skill'], pa('§1 Prune', PRUNE_CONSTANTS, '["skill"]')],
    pruneAfter: ['each_request', unpruned],
    pruneCompletedOnly: [false, unpruned],
    overflowTrigger: [
      'context_ratio',
      sp('Finish', FINISH, undefined, {
        disagrees: {
          ...passage(PA)('§1 Overflow', 'usable = limit.input ? limit.input − reserved : context − reserved.'),
          why: 'the profile follows its own spec: 90% of the window',
        },
      }),
    ],
    overflowRatio: [0.9, sp('Finish', FINISH, '0.9')],
    outputReserve: ['window_quarter', unused({ overflowTrigger: 'context_ratio' })],
    overflowAction: ['compact', sp('Finish', 'needsCompaction = true // Signal compaction needed')],
    compactionKeep: ['turns_clamped', pa('§1 LLM compaction', TAIL)],
    compactionKeepTurns: [2, pa('§1 LLM compaction', TAIL, '2')],
    compactionKeepShare: [0, unused({ compactionKeep: 'turns_clamped' })],
    compactionValidation: ['none', pa('§1 LLM compaction', 'There is no inflation check and no empty-summary check.')],
    compactionBaseline: ['replaced_estimate', unused({ compactionValidation: 'none' })],
    preflight: ['off', silent(SP, 'off', 'nothing is checked before sending')],
    providerOverflow: ['compact', pa('§1 Overflow', 'A provider ContextOverflowError takes the same path in halt().')],
    providerOverflowRetries: [2, silent([SP, PA], 'loupe', 'neither bounds the recoveries of one call; as Loupe')],
    retrySchedule: [
      'opencode',
      sp(
        'Python Equivalent',
        'if is_retryable(e) and attempt < 5:',
        { text: '5', constant: { name: 'RETRY_SCHEDULES.opencode.maxRetries', value: RETRY_SCHEDULES.opencode.maxRetries } },
        {
          also: [passage(SP)('Error Handling and Retries', 'const max = 60000 // Cap at 60s')],
          disagrees: {
            ...passage(PA)('§1 Retry', 'there is no attempt cap (forks add one)'),
            why: "the profile follows its own spec's attempt < 5; the survey's code has no cap, which a harness run cannot have",
          },
        },
      ),
    ],
    callIds: ['provider', silent(SP, 'loupe', 'the ids the stream gives (toolCallId) are kept; as Loupe')],
    toolExecution: [
      'parallel',
      sp('Tool Call', '// Update tool call state to "running"', undefined, {
        note: 'each call starts running on its own tool-call event while the stream goes on',
      }),
    ],
    onRejection: ['stop', sp('Tool Error', 'blocked = true // Signal main loop to stop')],
  },
  choices: {
    iterations: '100 (upstream: agent.steps, unbounded by default)',
    repeat: 'the last 3 parts of the current reply: same tool, identical JSON input',
    sameTool: 'none',
    cycle: 'none',
    errorRepeat: 'none',
    contentLoop: 'none',
    onLoop: 'ask permission `doom_loop` before the third call runs; a denial rejects it',
    nudges: 'none',
    hallucination: 'none: the text stays',
    epilogue: 'none',
    tokens: 'chars / 4',
    trim: 'none (compaction instead)',
    toolCap: 'none',
    prune: 'off (40k protect / 20k minimum, last 2 turns and `skill` exempt, when enabled)',
    overflow: 'input tokens of the last step > 90% of the window → compact',
    compaction: 'LLM summary, tools off; the last 2 steps kept if they fit clamp(25% of usable, 2k, 8k); no validation',
    preflight: 'nothing',
    providerOverflow: 'compact and retry',
    retry:
      'rate limit, overloaded, timeout and network errors only; 2 s doubling, capped at 60 s; Retry-After replaces the delay; 5 retries',
    toolExecution: 'as the calls arrive, concurrently',
    rejection: 'the session stops (blocked → "stop")',
    queue: 'all queued messages before the next step',
  },
};
