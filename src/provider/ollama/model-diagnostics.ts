// What Loupe would do with a model, and what stands in its way — the MCP agent's /api/models/check
// without its live probing: installed or not, where requests go (cloud models to the local Ollama),
// how tools are offered (native or as text, and why), thinking, the slot weight. Pure.
import { toolCallingDecision, thinkParam, type ToolCallingDecision } from './model-family';
import { isCloudModel } from './model-name';
import type { ModelDetail, ModelInfo } from './ollama-models';
import { resolveModelWeight } from './model-weight';

export interface ModelDiagnosis {
  model: string;
  installed: boolean;
  cloud: boolean;
  /** the Ollama that serves it */
  host: string | null;
  loaded: boolean;
  family: string;
  toolCalling: Pick<ToolCallingDecision, 'mode' | 'reason'>;
  /** the `think` field Loupe sends: false switches a local thinking model's reasoning off; gpt-oss gets a level */
  think: boolean | string | null;
  capabilities: string[] | null;
  /** share of the host's slot capacity one request takes */
  slotWeight: number;
  /** usable for an agent session as it stands */
  ok: boolean;
  problems: string[];
}

export function diagnoseModel(model: string, detail: ModelDetail | undefined, info: ModelInfo | null, maxWeight: number): ModelDiagnosis {
  const details = info?.details ?? (detail ? { family: detail.family, parameter_size: detail.parameterSize } : null);
  const capabilities = info?.capabilities ?? (detail?.capabilities.length ? detail.capabilities : null);
  const decision = toolCallingDecision(model, details, capabilities);
  const problems: string[] = [];
  if (!detail) problems.push('not installed on the host: pull it first');
  if (detail && !capabilities) problems.push('capabilities unknown: the host did not answer /api/show');
  if (decision.mode === 'none') problems.push('no completion capability (an embedding model?): it cannot run a session');
  if (decision.reason === 'no_tools_capability')
    problems.push('no tools capability: tools are offered as text and parsed from its replies');
  const think = thinkParam(model, details, capabilities);
  return {
    model,
    installed: Boolean(detail),
    cloud: isCloudModel(model),
    host: detail?.host ?? null,
    loaded: detail?.loaded ?? false,
    family: decision.family,
    toolCalling: { mode: decision.mode, reason: decision.reason },
    think: think ?? null,
    capabilities,
    slotWeight: resolveModelWeight({ model, parameterSize: details?.parameter_size, maxWeight }).weight,
    ok: Boolean(detail) && decision.mode !== 'none',
    problems,
  };
}
