// Every migration, in order. Listed as classes (not a glob) so the same list works from ts-jest and dist.
import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { HostEvents1763800000000 } from './1763800000000-host-events';
import { ExactTextAndOwners1763900000000 } from './1763900000000-exact-text-and-owners';
import { McpServers1764000000000 } from './1764000000000-mcp-servers';
import { ApprovalWaits1764100000000 } from './1764100000000-approval-waits';
import { EvalEvidence1764200000000 } from './1764200000000-eval-evidence';
import { SessionFilters1764300000000 } from './1764300000000-session-filters';
import { DashboardViews1764400000000 } from './1764400000000-dashboard-views';
import { RecordResumeWorkers1764500000000 } from './1764500000000-record-resume-workers';
import { EventsWithoutSessionFk1764600000000 } from './1764600000000-events-without-session-fk';
import { UnjudgedCounts1764700000000 } from './1764700000000-unjudged-counts';
import { DashboardFilters1764800000000 } from './1764800000000-dashboard-filters';
import { RunTrialCounts1764944000000 } from './1764944000000-run-trial-counts';
import { SimHostGroup1765000000000 } from './1765000000000-sim-host-group';

export const MIGRATIONS = [
  InitialSchema1763700000000,
  HostEvents1763800000000,
  ExactTextAndOwners1763900000000,
  McpServers1764000000000,
  ApprovalWaits1764100000000,
  EvalEvidence1764200000000,
  SessionFilters1764300000000,
  DashboardViews1764400000000,
  RecordResumeWorkers1764500000000,
  EventsWithoutSessionFk1764600000000,
  UnjudgedCounts1764700000000,
  DashboardFilters1764800000000,
  RunTrialCounts1764944000000,
  SimHostGroup1765000000000,
];
