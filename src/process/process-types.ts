import type { ApprovalPolicy } from '../approval/approval-policy';
import type { LlmProvider } from '../provider/llm-provider';
import type { ExternalMcpServerConfig } from '../tools/external-mcp';
import type { ToolRegistry } from '../tools/tool-registry';

export type CouncilRole = 'member' | 'discusser' | 'reviewer';

/** Everything one direct-process session needs. Built by the eval runner, the admin API or the CLI. */
export interface DirectProcessOptions {
  sessionId: string;
  agent?: string;
  model: string;
  prompt: string;
  /** extra system instructions (persona/skill) */
  systemPrompt?: string;
  provider: LlmProvider;
  tools: ToolRegistry;
  councilRole?: CouncilRole;
  /** external MCP servers (stdio) whose tools join the session's */
  externalMcp?: ExternalMcpServerConfig[];
  /** which tools may run; default: all allowed */
  permissions?: ApprovalPolicy;
  workspaceDir?: string;
  trialId?: string | null;
  /** per-session overrides of loop settings */
  config?: Partial<LoopSettings>;
}

export interface LoopSettings {
  maxToolIterations: number;
  numCtx: number;
  toolTimeoutMs: number;
  /** loop-control thresholds (defaults: the spec's 3 and 5; cycle ×3; repeated error ×3) */
  repeatThreshold: number;
  sameToolThreshold: number;
  cycleRepetitions: number;
  errorRepeatThreshold: number;
  maxNudges: number;
  maxMidChainNudges: number;
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
  /** queued and injected between iterations */
  sendMessage(text: string): void;
  kill(reason?: string): void;
  readonly done: Promise<SessionResult>;
}
