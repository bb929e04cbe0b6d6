// A live eval's preflight, pure: before any trial starts, what the host said (reachable, the models it
// has, their capabilities and context lengths, a cloud model's sign-in) judged against what the run
// plans (models, num_ctx values, scenarios that give tools) with the doctor's own judgements. Each
// problem names the model, scenario or field; any problem stops the run (exit 2) before it starts.
import { judgeCloudAccess, judgeNumCtx, judgeServer } from '../provider/ollama/doctor/doctor-judgement';
import type { CloudAccess, ModelFacts, NumCtxSetting } from '../provider/ollama/doctor/doctor-types';
import { toolCallingDecision } from '../provider/ollama/model-family';
import { canonicalModelName } from '../provider/ollama/model-name';
import { councilToolPolicy } from '../process/policies/council-policy';
import { jobNumCtx } from './live-groups';
import type { Job } from './run-plan';
import { settingsOf } from '../session-spec/session-settings';

/** What a run asks of one model: its num_ctx values (with where each comes from) and the scenarios that give it tools. */
export interface PlannedUse {
  model: string;
  numCtx: NumCtxSetting[];
  scenarios: string[];
  toolScenarios: string[];
}

function numCtxSource(job: Pick<Job, 'scenario' | 'config'>, configured: number | undefined): string {
  // the judgement says "<source> num_ctx <value>"
  if (settingsOf(job.config.overrides).loopSettings.numCtx !== undefined) return '--set';
  if (job.scenario.loopSettings.numCtx !== undefined) return `scenario ${job.scenario.id} (${job.scenario.file}) config:`;
  return configured !== undefined ? 'OLLAMA_NUM_CTX' : "Loupe's default";
}

const givesTools = (s: Job['scenario']) => councilToolPolicy(s.councilRole).toolsEnabled && s.tools?.length !== 0;

/** The run's models in plan order, each with what its jobs ask of it. */
export function plannedUses(jobs: ReadonlyArray<Pick<Job, 'scenario' | 'config' | 'model'>>, configuredNumCtx?: number): PlannedUse[] {
  const uses = new Map<string, PlannedUse>();
  for (const job of jobs) {
    const use = uses.get(job.model) ?? { model: job.model, numCtx: [], scenarios: [], toolScenarios: [] };
    const value = jobNumCtx(job, configuredNumCtx);
    if (!use.numCtx.some((n) => n.value === value)) use.numCtx.push({ value, source: numCtxSource(job, configuredNumCtx) });
    if (!use.scenarios.includes(job.scenario.id)) use.scenarios.push(job.scenario.id);
    if (givesTools(job.scenario) && !use.toolScenarios.includes(job.scenario.id)) use.toolScenarios.push(job.scenario.id);
    uses.set(job.model, use);
  }
  return [...uses.values()];
}

/** What the preflight read for one planned model (facts null: the host does not list it). */
export interface ModelPreflight {
  model: string;
  /** the host that serves it (the local Ollama for a cloud model) */
  host: string;
  facts: ModelFacts | null;
  /** cloud models only */
  cloud?: CloudAccess;
}

export interface HostPreflight {
  host: string;
  reachable: boolean;
  error?: string;
}

export interface PreflightVerdict {
  /** each stops the run */
  problems: string[];
  /** said, and the run goes on */
  notes: string[];
}

const list = (xs: readonly string[]) => (xs.length > 3 ? `${xs.slice(0, 3).join(', ')} and ${xs.length - 3} more` : xs.join(', '));

export function judgePreflight(
  hosts: readonly HostPreflight[],
  uses: readonly PlannedUse[],
  models: readonly ModelPreflight[],
): PreflightVerdict {
  const problems: string[] = [];
  const notes: string[] = [];
  for (const h of hosts) {
    const [server] = judgeServer({ host: h.host, reachable: h.reachable, error: h.error, version: 'unknown', standin: false });
    if (server.level === 'fail')
      problems.push(`${server.message} (OLLAMA_HOST${h === hosts[0] ? '' : ' / OLLAMA_LOCAL_HOST, for cloud models'})`);
  }
  if (problems.length) return { problems, notes };
  const byName = new Map(models.map((m) => [canonicalModelName(m.model), m]));
  for (const use of uses) {
    const read = byName.get(canonicalModelName(use.model));
    const scenarios = `scenario${use.scenarios.length > 1 ? 's' : ''} ${list(use.scenarios)}`;
    if (!read?.facts) {
      problems.push(
        `${use.model} (${scenarios}) is not installed on ${read?.host ?? hosts[0].host}: pull it first (ollama pull ${use.model})`,
      );
      continue;
    }
    const { facts } = read;
    const decision = toolCallingDecision(
      facts.model,
      { family: facts.family ?? undefined, parameter_size: facts.parameterSize ?? undefined },
      facts.capabilities,
    );
    if (decision.mode === 'none')
      problems.push(
        `${use.model} (${scenarios}) cannot chat (capabilities: ${facts.capabilities?.join(', ') || 'none'}): a session needs a completion model`,
      );
    else if (decision.reason === 'no_tools_capability' && use.toolScenarios.length)
      notes.push(
        `${use.model} has no tools capability: Loupe runs it in text tool mode (tools described in the prompt, calls parsed from its replies) for scenario${use.toolScenarios.length > 1 ? 's' : ''} ${list(use.toolScenarios)}`,
      );
    if (read.cloud) {
      const cloud = judgeCloudAccess(use.model, read.host, read.cloud);
      if (cloud.level === 'fail') problems.push(cloud.message);
      else if (cloud.level === 'warn') notes.push(cloud.message);
    }
    for (const f of judgeNumCtx(use.numCtx, facts.contextLength)) {
      if (f.level === 'fail') problems.push(`${use.model}: ${f.message.replace("the model's", `${use.model}'s trained`)}`);
    }
    if (use.numCtx.length > 1)
      notes.push(
        `${use.model} runs at num_ctx ${use.numCtx.map((n) => n.value).join(', ')}: its trials run in ${use.numCtx.length} groups, each loaded once before its trials`,
      );
  }
  return { problems, notes };
}
