// The vocabulary of simulated models (`sim:<persona>`): a persona is a seeded stochastic policy
// over the conversation the stand-in is sent. It knows the task's intended solution (the plan)
// and, each turn, from what it can see, picks one behaviour. Declared once here and used by the
// policy (src/sim), the stand-in that serves it, the fit from recorded runs and the docs.
// Plain data only.

/** What a simulated model does on one turn. */
export const SIM_BEHAVIOURS = [
  /** take the next step of the plan (a call, or the final answer once every step is done) */
  'next_step',
  /** repeat its last call, same arguments */
  'repeat_last',
  /** call the same tool again with other arguments */
  'vary_args',
  /** call a tool that does not exist */
  'unknown_tool',
  /** write fake tool output in text instead of calling */
  'fake_output',
  /** promise to act without acting */
  'promise',
  /** answer before the work is done */
  'early_answer',
  /** write the next call malformed, in its family's text format */
  'malformed_call',
  /** the information it needs was trimmed out of its context and it lost the plan: starts over */
  'lose_plan',
] as const;
export type SimBehaviour = (typeof SIM_BEHAVIOURS)[number];

/** The behaviours a persona gives a probability; next_step takes what the others leave (1 - sum). */
export type SimDeviation = Exclude<SimBehaviour, 'next_step' | 'lose_plan'>;

/** What the loop did just before this turn, as the model can see it in the messages. */
export const SIM_SITUATIONS = [
  /** nothing special: the previous turn's calls got their results (or this is the first turn) */
  'base',
  /** the loop nudged (a user/system message after a reply that did not act) */
  'after_nudge',
  /** the loop broke a repeat/cycle (its break message stands in place of, or after, a result) */
  'after_break',
  /** a call was denied by approval */
  'after_denial',
  /** a call failed (tool error, unknown tool, invalid arguments) */
  'after_error',
] as const;
export type SimSituation = (typeof SIM_SITUATIONS)[number];

/** Probabilities of the deviations in one situation; missing = 0. They must sum to ≤ 1. */
export type SimWeights = Partial<Record<SimDeviation, number>>;

/** The text shape a persona writes tool calls in when it writes them as text (the families Loupe extracts). */
export type SimToolFamily = 'qwen3' | 'hermes' | 'llama3' | 'mistral';

export interface Persona {
  name: string;
  description: string;
  /** the family the stand-in reports (/api/show details.family) and whose text format calls use */
  family: SimToolFamily;
  /** native: message.tool_calls; text: calls written in the family's format in content */
  toolCalls: 'native' | 'text';
  /** decode speed (stand-in tokenizer tokens per second) */
  tokensPerSecond: number;
  /** prompt processing speed */
  prefillTokensPerSecond: number;
  /** the model's context length (caps num_ctx, as a real model's training context does) */
  contextLength: number;
  /** per situation; `base` is required, the others default to `base` */
  behaviour: { base: SimWeights } & Partial<Record<Exclude<SimSituation, 'base'>, SimWeights>>;
  /** probability of losing the plan on a turn where evidence of completed steps was trimmed out of its context */
  losePlan: number;
}

/** A tool call as the simulation reasons about it. */
export interface SimCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The task's intended solution: its tool calls in order, then the final answer. */
export interface SimPlan {
  steps: SimCall[];
  finalAnswer: string;
}

/** How far the model is, from what it can see. */
export interface SimProgress {
  /** plan steps done (a prefix of the plan) */
  completed: number;
  /** the model's last call, if any (what repeat_last repeats) */
  lastCall?: SimCall;
  /** evidence of some completed step is no longer visible (trimmed, pruned or compacted away) */
  evidenceLost: boolean;
  situation: SimSituation;
}

/** A reply as the model wrote it (what the stand-in serves; what the fit classifies). */
export interface SimReply {
  content: string;
  /** native tool calls */
  toolCalls: SimCall[];
}

export interface SimDecision {
  behaviour: SimBehaviour;
  reply: SimReply;
}
