// A loop profile: one agent system's loop control as a named bundle of policy choices, each cited
// to the spec section (or reference) it comes from. The settings drive the loop; the choices are the
// same decisions in words, for the README's profiles table and for people reading a run.
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
} as const;

export type PolicyRow = keyof typeof POLICY_ROWS;

export interface ProfileChoice {
  /** the choice in words, with its constants */
  choice: string;
  /** where it comes from: a spec section, a reference, or why the profile chose it where its spec is silent */
  source: string;
}

export interface LoopProfile {
  name: LoopProfileName;
  /** the agent system whose loop this is */
  system: string;
  /** the spec(s) the profile follows; the first is its own */
  specs: string[];
  policies: LoopPolicies;
  choices: Record<PolicyRow, ProfileChoice>;
}
