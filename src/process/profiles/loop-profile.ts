// A loop profile: one agent system's loop control as data. Every setting carries its value and its
// citation (the spec or reference passage it comes from, in that source's own words, with the figure
// it states), so a test can hold each value to its source; the README table and `loupe profiles` are
// rendered from the same data. The prose per row only describes the choice; sources come from the
// settings' citations.
import type { LoopPolicies, LoopProfileName } from '../policies/loop-settings';

/** The rows of the profiles table: one per policy a profile chooses. */
export const POLICY_ROWS = {
  iterations: 'Iteration cap',
  repeat: 'Identical calls',
  sameTool: 'Same tool, any arguments',
  cycle: 'Call cycles',
  errorRepeat: 'Repeated identical errors',
  contentLoop: 'Repeated text',
  onLoop: 'On a detected loop',
  nudges: 'Weak-reply nudges',
  hallucination: 'Fabricated tool output',
  epilogue: 'After a loop break',
  tokens: 'Token estimate',
  trim: 'Trimming',
  toolCap: 'Tool-result cap',
  prune: 'Pruning old tool output',
  overflow: 'Overflow trigger (actual tokens)',
  compaction: 'Compaction',
  preflight: 'Before sending',
  providerOverflow: 'Server rejects the context',
  retry: 'Retries',
  toolExecution: 'Tool execution',
  rejection: 'A rejected tool call',
  queue: 'Messages sent mid-loop',
} as const;

export type PolicyRow = keyof typeof POLICY_ROWS;

export type SettingName = keyof LoopPolicies;

/** The row each setting is shown in (every setting has one: a new setting fails the type check here). */
export const SETTING_ROWS: Readonly<Record<SettingName, PolicyRow>> = {
  maxToolIterations: 'iterations',
  capRecovery: 'iterations',
  graceTurnMs: 'iterations',
  repeatThreshold: 'repeat',
  repeatScope: 'repeat',
  repeatCheck: 'repeat',
  callKey: 'repeat',
  sameToolThreshold: 'sameTool',
  cycleRepetitions: 'cycle',
  cycleMaxPeriod: 'cycle',
  errorRepeatThreshold: 'errorRepeat',
  contentLoopThreshold: 'contentLoop',
  doomLoop: 'onLoop',
  loopNudges: 'onLoop',
  nudgePolicy: 'nudges',
  maxNudges: 'nudges',
  hallucinationGuard: 'hallucination',
  maxMidChainNudges: 'hallucination',
  epilogue: 'epilogue',
  tokenEstimator: 'tokens',
  trimMaxMessages: 'trim',
  trimKeepRecent: 'trim',
  trimBudgetRatio: 'trim',
  trimBudgetTokens: 'trim',
  trimSummaries: 'trim',
  toolResultCap: 'toolCap',
  toolResultMaxChars: 'toolCap',
  toolResultCharsPerToken: 'toolCap',
  prune: 'prune',
  pruneProtectTokens: 'prune',
  pruneMinimumTokens: 'prune',
  pruneKeepTurns: 'prune',
  pruneProtectedTools: 'prune',
  pruneAfter: 'prune',
  pruneCompletedOnly: 'prune',
  overflowTrigger: 'overflow',
  overflowRatio: 'overflow',
  outputReserve: 'overflow',
  overflowAction: 'compaction',
  compactionKeep: 'compaction',
  compactionKeepTurns: 'compaction',
  compactionKeepShare: 'compaction',
  compactionValidation: 'compaction',
  compactionBaseline: 'compaction',
  preflight: 'preflight',
  providerOverflow: 'providerOverflow',
  providerOverflowRetries: 'providerOverflow',
  retrySchedule: 'retry',
  callIds: 'toolExecution',
  toolExecution: 'toolExecution',
  onRejection: 'rejection',
  queueInjection: 'queue',
};

/** The specs and references a citation may name, and the folder of the shared docs each lives in. */
export const SOURCE_FILES = {
  'direct-process.spec.md': 'specs',
  'ollama-provider.spec.md': 'specs',
  'mcp-agent-technical-spec.md': 'specs',
  'context-management-plan.md': 'specs',
  'stream-processor-deep-dive.md': 'specs',
  'corvid-agent-notes.md': 'reference',
  'loop-control-prior-art.md': 'reference',
  'ollama-live-behaviour.md': 'reference',
  'ollama-protocol.md': 'reference',
} as const;

export type SourceFile = keyof typeof SOURCE_FILES;

/** A passage of a source in its own words (whitespace, `*` and backticks aside). */
export interface Quote {
  file: SourceFile;
  /** the section, invariant, step or table row */
  at: string;
  quote: string;
}

/**
 * A figure the quote states, as the quote writes it ("25", "40_000", "50k", "30%", "60s", "once",
 * '["skill"]'). Read back (parseFigure) and shifted by `offset`, it must equal the setting's value —
 * or, where the setting's value is a name (an estimator, a retry schedule), the named option's
 * constant in Loupe's code.
 */
export interface Figure {
  text: string;
  /** the setting is the figure plus this (10 attempts are 9 retries); `why` says so */
  offset?: number;
  constant?: { name: string; value: unknown };
  why?: string;
}

export type Citation =
  /** the system's own source states the value */
  | (Quote & {
      kind: 'states';
      figure?: Figure;
      note?: string;
      /** more passages that bear on it */
      also?: Quote[];
      /** a source that says otherwise, and why the profile does not follow it */
      disagrees?: Quote & { figure?: string; why: string };
    })
  /** the system's sources say nothing: the feature is off there, or the value is another profile's, or a judgement */
  | { kind: 'silent'; files: SourceFile[]; then: 'off' | LoopProfileName | 'judgement'; why: string }
  /** the value is never read while these other settings have these values */
  | { kind: 'unused'; while: Partial<LoopPolicies> }
  /** Loupe's own choice against a system's: a named option value (or, for a number, a named value), off in that system's profile */
  | { kind: 'departure'; from: LoopProfileName; name: string; reason: string; evidence?: Quote[] }
  /** upstream has no such bound, and a harness run must end: another profile's value */
  | { kind: 'harness'; upstream: Quote; then: LoopProfileName; why: string };

export type CitationKind = Citation['kind'];

/** A setting's value and where it comes from. */
export type Cited<T> = readonly [value: T, citation: Citation];

export type CitedPolicies = { [K in SettingName]: Cited<LoopPolicies[K]> };

export interface LoopProfile {
  name: LoopProfileName;
  /** the agent system whose loop this is */
  system: string;
  /** the spec(s) the profile follows; the first is its own */
  specs: SourceFile[];
  settings: CitedPolicies;
  /** each row's choice in words, with its constants (its sources come from the settings' citations) */
  choices: Record<PolicyRow, string>;
}

/** The settings the loop runs under: the values of the cited settings. */
export function policiesOf(profile: Pick<LoopProfile, 'settings'>): LoopPolicies {
  return Object.fromEntries(Object.entries(profile.settings).map(([k, [value]]) => [k, value])) as unknown as LoopPolicies;
}
