// What the loop does with a model reply: run its tool calls, nudge, or stop. Pure; the loop is a
// switch over the answer. Precedence, in the spec's order: fabricated tool output is checked first
// (invariant 8, on every reply after tools have run, and on any reply that calls tools — the
// text-mode habit of writing a call and then its "result"), then the nudges (invariant 7). A nudge is
// a re-ask, so another turn: at the iteration cap (invariant 2) there is none, and the loop stops.
import type { LlmToolCall } from '../../provider/llm-types';
import { detectHallucinatedToolOutput, MID_CHAIN_NUDGE_MESSAGE } from './hallucination-detector';
import { capRulesOut, type MaxIterationsBreak } from './max-iterations';
import type { LoopCounters } from './loop-counters';
import type { LoopSettings } from './loop-settings';
import { detectNudgeReason, type NudgeEvidence, type NudgeReason } from './nudge-policy';

export interface ModelReply {
  content: string;
  toolCalls: LlmToolCall[];
}

/** Fabricated tool output found in a reply: the evidence the journal keeps. */
export interface StrippedOutput {
  markers: string[];
  /** the reply's text before the first marker: all that enters the transcript */
  strippedText: string;
}

export type NextStep =
  | {
      kind: 'run_tools';
      calls: LlmToolCall[];
      /** the assistant text to keep (fabricated output removed) */
      content: string;
      stripped?: StrippedOutput;
      /** a mid-chain nudge to add after the tool results (budget permitting) */
      midChainNudge?: string;
    }
  | { kind: 'nudge'; reason: NudgeReason; evidence: NudgeEvidence; message: string }
  | { kind: 'mid_chain_nudge'; stripped: StrippedOutput; message: string }
  | {
      /** a nudge was due but the cap is reached: no re-ask, the loop stops */
      kind: 'cap_reached';
      cap: MaxIterationsBreak;
      /** the reply's text to keep (fabricated output removed) */
      finalAnswer: string;
      stripped?: StrippedOutput;
    }
  | {
      kind: 'stop';
      reason: 'completed' | 'nudges_exhausted';
      finalAnswer: string;
      /** what the budget ran out on, when it did */
      exhausted?:
        | { kind: 'nudge'; reason: NudgeReason; evidence: NudgeEvidence; nudgesSoFar: number; max: number }
        | { kind: 'mid_chain_nudge'; stripped: StrippedOutput; nudgesSoFar: number; max: number };
    };

export interface NextStepInput {
  reply: ModelReply;
  /** this loop step, 1-based */
  step: number;
  counters: Pick<LoopCounters, 'toolsCalled' | 'nudges' | 'midChainNudges'>;
  settings: Pick<LoopSettings, 'maxToolIterations' | 'maxNudges' | 'maxMidChainNudges' | 'nudgePolicy' | 'hallucinationGuard'>;
  toolsEnabled: boolean;
}

export function decideNextStep({ reply, step, counters, settings, toolsEnabled }: NextStepInput): NextStep {
  const calls = reply.toolCalls;
  const guarded =
    settings.hallucinationGuard === 'all_replies' || (settings.hallucinationGuard === 'replies_without_calls' && calls.length === 0);
  const fabricated = !guarded
    ? null
    : detectHallucinatedToolOutput({
        text: reply.content,
        // a reply that calls tools counts as "after tools": what follows its calls is not their output
        toolsCalledSoFar: counters.toolsCalled + calls.length,
        midChainNudgesSoFar: counters.midChainNudges,
        maxMidChainNudges: settings.maxMidChainNudges,
      });
  const stripped = fabricated && { markers: fabricated.markers, strippedText: fabricated.strippedText };

  if (calls.length) {
    return {
      kind: 'run_tools',
      calls,
      content: stripped ? stripped.strippedText : reply.content,
      ...(stripped ? { stripped } : {}),
      ...(fabricated?.kind === 'mid_chain_nudge' ? { midChainNudge: MID_CHAIN_NUDGE_MESSAGE } : {}),
    };
  }
  if (fabricated?.kind === 'mid_chain_nudge') {
    const cap = capRulesOut(step, settings.maxToolIterations, 'mid_chain_nudge');
    return cap
      ? { kind: 'cap_reached', cap, finalAnswer: stripped!.strippedText, stripped: stripped! }
      : { kind: 'mid_chain_nudge', stripped: stripped!, message: fabricated.message };
  }
  if (fabricated?.kind === 'mid_chain_nudges_exhausted') {
    return {
      kind: 'stop',
      reason: 'nudges_exhausted',
      finalAnswer: fabricated.strippedText,
      exhausted: {
        kind: 'mid_chain_nudge',
        stripped: stripped!,
        nudgesSoFar: fabricated.midChainNudgesSoFar,
        max: fabricated.maxMidChainNudges,
      },
    };
  }

  const nudge =
    toolsEnabled && settings.nudgePolicy !== 'off'
      ? detectNudgeReason({
          text: reply.content,
          iteration: step,
          maxIterations: settings.maxToolIterations,
          toolsCalledSoFar: counters.toolsCalled,
          nudgesSoFar: counters.nudges,
          maxNudges: settings.maxNudges,
        })
      : null;
  if (nudge?.kind === 'nudge') {
    const cap = capRulesOut(step, settings.maxToolIterations, 'nudge');
    return cap
      ? { kind: 'cap_reached', cap, finalAnswer: reply.content }
      : { kind: 'nudge', reason: nudge.reason, evidence: nudge.evidence, message: nudge.message };
  }
  if (nudge?.kind === 'nudges_exhausted') {
    return {
      kind: 'stop',
      reason: 'nudges_exhausted',
      finalAnswer: reply.content,
      exhausted: { kind: 'nudge', reason: nudge.reason, evidence: nudge.evidence, nudgesSoFar: nudge.nudgesSoFar, max: nudge.maxNudges },
    };
  }
  return { kind: 'stop', reason: 'completed', finalAnswer: reply.content };
}
