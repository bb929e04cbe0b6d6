import type { ApprovalBroker } from '../approval/approval-broker';
import type { ApprovalPolicy } from '../approval/approval-policy';
import type { LlmProvider } from '../provider/llm-provider';
import type { ToolRegistry } from '../tools/tool-registry';
import type { SessionExpiredReason } from './expiry-reason';
import type { InferencePurpose } from './inference-step';
import type { CouncilRole } from './policies/council-policy';
import type { LoopSettings } from './policies/loop-settings';

export type { CouncilRole, LoopSettings };

/** Everything one direct-process session needs (built by the eval runner). */
export interface DirectProcessOptions {
  sessionId: string;
  agent?: string;
  model: string;
  prompt: string;
  /** extra system instructions (persona/skill) */
  systemPrompt?: string;
  provider: LlmProvider;
  /** the session's whole toolset (built-in and external servers), assembled before the loop; the loop closes it */
  tools: ToolRegistry;
  councilRole?: CouncilRole;
  /** which tools may run, and which are asked about; default: all allowed */
  permissions?: ApprovalPolicy;
  /** who answers an `ask` (a person through the API or viewer, a scenario script); unanswered ones time out */
  approvals: ApprovalBroker;
  workspaceDir?: string;
  trialId?: string | null;
  /** per-session overrides of loop settings */
  config?: Partial<LoopSettings>;
  /** sent with every model request of the session (an eval trial's seed); unset: none is sent */
  seed?: number;
  /** the model's output as it streams, for live watchers (never journaled: the final text is) */
  onDelta?: (delta: { content?: string; thinking?: string }, at: { iteration: number; purpose: InferencePurpose }) => void;
}

export interface SessionResult {
  sessionId: string;
  pid: number;
  terminationReason: string;
  exitCode: number;
  finalAnswer: string;
  iterations: number;
  error?: string;
}

/** What the process manager hands back: the spec's SdkProcess handle. */
export interface SessionHandle {
  readonly pid: number;
  readonly sessionId: string;
  /** queued and injected before the next iteration; returns the message's position in the queue */
  sendMessage(text: string): number;
  /** a SessionExpiredReason (the idle-session janitor) ends it as `expired` */
  kill(reason?: string | SessionExpiredReason): void;
  readonly done: Promise<SessionResult>;
  /** resolves once the session's row is handed to the journal (or the session ended before it was) */
  readonly recorded: Promise<void>;
}
