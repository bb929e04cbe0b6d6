import type { StandinModel, StandinScript } from '../../standin/standin-script';
import type { ApprovalPolicy } from '../../approval/approval-policy';
import type { ExternalMcpServerConfig } from '../../tools/external-mcp';
import type { Expectation, ScenarioDocument, TriggerDocument } from './scenario-schema';

/** A loaded, validated scenario, with the stand-in script converted to its runtime shape. */
export interface Scenario {
  id: string;
  title: string;
  spec: string;
  version: number;
  file: string;
  /** sha256 of the file text: results are tied to the exact scenario they ran */
  hash: string;
  model?: string;
  /** where `model` is written, for errors about it */
  modelLine?: number;
  prompt: string;
  system?: string;
  councilRole?: 'member' | 'discusser' | 'reviewer';
  config: ScenarioDocument['config'];
  workspaceFiles: Record<string, string>;
  tools?: string[];
  catalog?: StandinModel[];
  defaultCatalog: boolean;
  script: StandinScript;
  permissions?: ApprovalPolicy;
  mcpServers?: ExternalMcpServerConfig[];
  ollama?: {
    maxParallel?: number;
    numGpu?: number;
    firstByteTimeoutMs?: number;
    idleTimeoutMs?: number;
    requestTimeoutMs?: number;
    localStandin?: { catalog?: StandinModel[] };
  };
  holdSlots?: Array<{ model: string; releaseAfterMs: number }>;
  kill?: TriggerDocument;
  inject?: Array<TriggerDocument & { text: string }>;
  expect: Expectation[];
}
