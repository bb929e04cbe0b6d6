// The one vocabulary of how a loop goes wrong and how it ends: the loop-control breaks, the nudge
// reasons, the termination reasons, and the pathology keys the statistics count (derived from the
// breaks, nudges and repairs). Declared once, here: the event schemas take their z.enum from it,
// the loop's policies their types, the statistics their keys, the scenario schema its list, the
// export what it pins, the viewer its labels (GET /api/events/vocabulary), and a test checks the
// dashboards' SQL against it (test/support/dashboard-names.ts).

/** Every way loop control can break a session (each is also an event type and a termination reason). */
export const LOOP_BREAK_KINDS = [
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  'content_loop_break',
  'max_iterations',
] as const;
export type LoopBreakKind = (typeof LOOP_BREAK_KINDS)[number];

/** Why the nudge policy nudges a reply that did not act (corvid's detectNudgeReason). */
export const TEXT_NUDGE_REASONS = ['promisedAction', 'tooShort', 'wroteButDidntAct', 'askedInsteadOfActing'] as const;
/** nudge.reason: the policy's reasons, and a loop warned about under a warn-first profile. */
export const NUDGE_REASONS = [...TEXT_NUDGE_REASONS, 'loopDetected'] as const;
export type NudgeEventReason = (typeof NUDGE_REASONS)[number];

export const TERMINATION_REASONS = [
  'completed',
  'max_iterations',
  'repeat_break',
  'same_tool_break',
  'cycle_break',
  'error_repeat_break',
  /** the model's text repeated itself (gemini-cli's content loop detector) */
  'content_loop_break',
  'nudges_exhausted',
  'aborted',
  'provider_error',
  'context_overflow',
  /** the inference slot was not granted in time (corvid's slot_timeout) */
  'slot_timeout',
  /** the Loupe process running the session died (found and closed by the next start) */
  'interrupted',
  /** a tool call was rejected and the session stops on rejection (stream-processor: blocked → stop) */
  'permission_rejected',
  /** idle past LOUPE_SESSION_IDLE_TIMEOUT_MS: pruned by the janitor, its history kept (mcp-agent "Expired Session") */
  'expired',
] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

// fails to compile when a break kind is not also a termination reason
const breaksTerminate: LoopBreakKind extends TerminationReason ? true : never = true;
void breaksTerminate;

/** How the viewer colours an ending: as asked, cut off by loop control or a limit, or failed. */
export type TerminationTone = 'ok' | 'warn' | 'bad';
export const TERMINATION_TONES: Readonly<Record<TerminationReason, TerminationTone>> = {
  completed: 'ok',
  max_iterations: 'warn',
  repeat_break: 'warn',
  same_tool_break: 'warn',
  cycle_break: 'warn',
  error_repeat_break: 'warn',
  content_loop_break: 'warn',
  nudges_exhausted: 'warn',
  aborted: 'bad',
  provider_error: 'bad',
  context_overflow: 'warn',
  slot_timeout: 'bad',
  interrupted: 'bad',
  permission_rejected: 'warn',
  expired: 'warn',
};

/** Events that record a repair of what the model wrote (counted as `repair.<event>`). */
export const REPAIR_EVENTS = [
  'tool_name_repaired',
  'tool_args_normalized',
  'tool_args_coerced',
  'tool_call_repaired',
  'tool_call_dropped',
] as const;

const nudgeKeys = NUDGE_REASONS.map((r) => `nudge.${r}` as const);
const repairKeys = REPAIR_EVENTS.map((e) => `repair.${e}` as const);

/**
 * What can go wrong in a loop, counted per trial, in the order reports list them (loop breaks
 * first, then nudges, repairs and the rest). Keys are stable: stored as jsonb, dashboards group by them.
 */
export const PATHOLOGY_KEYS = [
  ...LOOP_BREAK_KINDS,
  ...nudgeKeys,
  'doom_loop_asked',
  'nudges_exhausted',
  'mid_chain_nudge',
  'hallucination_stripped',
  ...repairKeys,
  'context_overflow',
  /** a model_reloaded event with measured: true (a reload inside a measured turn) */
  'model_reloaded',
  'invariant_violation',
] as const;
export type PathologyKey = (typeof PATHOLOGY_KEYS)[number];

export const pathologyOfNudge = (reason: NudgeEventReason): PathologyKey => `nudge.${reason}`;
export const pathologyOfRepair = (event: (typeof REPAIR_EVENTS)[number]): PathologyKey => `repair.${event}`;

/** What each pathology means, as the viewer labels it. */
export const PATHOLOGY_LABELS: Readonly<Record<PathologyKey, string>> = {
  repeat_break: 'loop broken: the same call repeated',
  same_tool_break: 'loop broken: one tool called over and over',
  cycle_break: 'loop broken: a sequence of calls repeated',
  error_repeat_break: 'loop broken: the same call kept failing',
  content_loop_break: 'loop broken: the reply text repeated itself',
  max_iterations: 'stopped at the iteration limit',
  'nudge.promisedAction': 'nudged: promised an action without acting',
  'nudge.tooShort': 'nudged: answer too short',
  'nudge.wroteButDidntAct': 'nudged: wrote instead of calling a tool',
  'nudge.askedInsteadOfActing': 'nudged: asked instead of acting',
  'nudge.loopDetected': 'nudged: warned about a loop',
  doom_loop_asked: 'a person was asked about a doom loop',
  nudges_exhausted: 'nudges exhausted',
  mid_chain_nudge: 'told to call tools properly after writing their output',
  hallucination_stripped: 'wrote its own tool output (stripped)',
  'repair.tool_name_repaired': 'repaired: misspelt tool name',
  'repair.tool_args_normalized': 'repaired: malformed argument text',
  'repair.tool_args_coerced': 'repaired: argument of the wrong type',
  'repair.tool_call_repaired': 'repaired: call markup or argument text',
  'repair.tool_call_dropped': 'dropped: a call that could not be run',
  context_overflow: 'the context did not fit',
  model_reloaded: 'the model was reloaded mid-run',
  invariant_violation: 'a loop invariant was violated',
};

/**
 * How the dashboards and reports group the pathologies (one rate per group): each key in exactly one
 * group. A dashboard list of pathologies is a union of whole groups (test/support/dashboard-names.ts).
 */
export const PATHOLOGY_GROUPS = {
  /** the loop repeated itself and loop control broke it */
  loop_break: LOOP_BREAK_KINDS.filter((k) => k !== 'max_iterations'),
  nudge: [...nudgeKeys, 'nudges_exhausted', 'doom_loop_asked'],
  hallucinated_output: ['hallucination_stripped', 'mid_chain_nudge'],
  max_iterations: ['max_iterations'],
  extraction_repair: repairKeys,
  context_overflow: ['context_overflow'],
  model_reloaded: ['model_reloaded'],
  invariant_violation: ['invariant_violation'],
} as const satisfies Record<string, readonly PathologyKey[]>;
export type PathologyGroup = keyof typeof PATHOLOGY_GROUPS;

export interface LoopVocabulary {
  loopBreaks: readonly LoopBreakKind[];
  nudgeReasons: readonly NudgeEventReason[];
  terminations: Array<{ reason: TerminationReason; tone: TerminationTone }>;
  pathologies: Array<{ key: PathologyKey; label: string }>;
}

/** The vocabulary as the viewer reads it (GET /api/events/vocabulary). */
export function loopVocabulary(): LoopVocabulary {
  return {
    loopBreaks: LOOP_BREAK_KINDS,
    nudgeReasons: NUDGE_REASONS,
    terminations: TERMINATION_REASONS.map((reason) => ({ reason, tone: TERMINATION_TONES[reason] })),
    pathologies: PATHOLOGY_KEYS.map((key) => ({ key, label: PATHOLOGY_LABELS[key] })),
  };
}
