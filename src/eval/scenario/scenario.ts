import type { ScenarioProblem } from './scenario-errors';
import type { StandinModel, StandinScript } from '../../standin/standin-script';
import type { ApprovalPolicy } from '../../approval/approval-policy';
import type { CouncilRole, LoopSettings } from '../../process/process-types';
import type { LoopProfileName } from '../../process/policies/loop-settings';
import type { ScenarioMcpServer } from './scenario-mcp-schema';
import type { Expectation, TriggerDocument } from './scenario-schema';
import type { StandinSettings } from './scenario-standin-schema';
import type { SimPlan } from '../../sim/sim-types';

export interface ScriptedApproval {
  tool?: string;
  request?: number;
  approve: boolean;
  reason?: string;
  afterMs?: number;
}

/** Per-trial settings of the provider (from the scenario's `ollama:`), already in the provider's terms. */
export interface ProviderOverrides {
  maxParallel?: number;
  numGpu?: number;
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
  retryDelayScale?: number;
}

/** A loaded, validated scenario, converted to the runtime's own types. */
export interface Scenario {
  id: string;
  title: string;
  spec: string;
  /** the spec items it checks (catalogue ids, validated) */
  covers?: string[];
  version: number;
  file: string;
  /** sha256 of the file text: results are tied to the exact scenario they ran */
  hash: string;
  model?: string;
  /** where `model` is written, for errors about it */
  modelLine?: number;
  prompt: string;
  system?: string;
  councilRole?: CouncilRole;
  /** the loop profiles whose loop `expect` describes: under any other its trials are judged by `expectByProfile` or `success` */
  profiles: LoopProfileName[];
  /** the scenario's `config:` overrides of the loop's settings */
  loopSettings: Partial<LoopSettings>;
  commandTimeoutMs?: number;
  commandSandbox?: 'auto' | 'bubblewrap' | 'none';
  workspaceFiles: Record<string, string>;
  tools?: string[];
  catalog?: StandinModel[];
  defaultCatalog: boolean;
  /** the stand-in server's settings (`standin:`): stand-in runs only */
  standin?: StandinSettings;
  script: StandinScript;
  /** the task's intended solution (`solution:`): what simulated models follow */
  solution?: SimPlan;
  permissions?: ApprovalPolicy;
  /** scripted answers to approval requests: by tool, or by the n-th request (1-based) */
  approvals?: ScriptedApproval[];
  /** external MCP servers of the session: defined here, started by the runner, or registered ones by name */
  mcpServers?: ScenarioMcpServer[];
  provider: ProviderOverrides;
  /** a second stand-in playing the local Ollama (cloud models are routed there) */
  localStandin?: { catalog?: StandinModel[] };
  /** slots occupied before the session starts, released after a delay or when the session records an event */
  holdSlots?: Array<{ model: string; releaseAfterMs?: number; releaseOn?: TriggerDocument }>;
  kill?: TriggerDocument;
  inject?: Array<TriggerDocument & { text: string }>;
  /** checks of a scripted run */
  expect: Expectation[];
  /** checks of a run against a real model (outcomes and budgets) */
  success?: Expectation[];
  /** exact checks of a scripted run under a profile the scenario was not written for, where that loop legitimately differs */
  expectByProfile?: Partial<Record<LoopProfileName, Expectation[]>>;
  /**
   * Expectations naming what the journal does not have (an event type, a payload field, a termination
   * reason): valid input, taken out of `expect`/`success`/`expect_by_profile`, and each fails when its list is judged.
   */
  unsatisfiable?: {
    expect: ScenarioProblem[];
    success: ScenarioProblem[];
    expectByProfile?: Partial<Record<LoopProfileName, ScenarioProblem[]>>;
  };
}
