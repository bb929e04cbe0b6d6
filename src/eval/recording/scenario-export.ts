// A recorded trial as a scripted regression scenario: the scenario it ran, with the recorded model
// as its model (described as the host described it), the recorded replies as its script (failed
// attempts as faults), the trial's profile and configuration, and expectations that pin what the
// recorded session did — how it ended, how many iterations, which loop decisions and how often.
// Pure: the caller reads the scenario file and writes the result.
import * as path from 'node:path';
import { LOOP_BREAK_KINDS, NUDGE_REASONS, pathologyOfNudge } from '../../journal/events/loop-vocabulary';
import type { ScenarioCatalogDocument } from '../scenario/scenario-schema';
import { turnsFromExchanges } from './recorded-turns';
import type { StoredExchange } from './trial-replay';

export interface RecordedTrialForExport {
  scenarioId: string;
  title: string;
  model: string;
  trialIndex: number;
  configKey: string;
  /** the configuration's overrides (snake_case config keys, profile included) */
  config: Record<string, unknown>;
  /** the profile the trial ran under */
  profile: string;
  terminationReason: string | null;
  iterations: number;
  /** pathology counts from the trial's outcome */
  pathologies: Record<string, number>;
  exchanges: StoredExchange[];
}

/** Loop decisions whose count the exported scenario pins (the pathology key is the event type). */
const PINNED_EVENTS = [...LOOP_BREAK_KINDS, 'hallucination_stripped', 'context_overflow'] as const;

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'x';

export function exportedScenarioId(t: Pick<RecordedTrialForExport, 'scenarioId' | 'model' | 'configKey' | 'trialIndex'>): string {
  return `recorded/${t.scenarioId}/${slug(t.model)}${t.configKey ? `/${slug(t.configKey)}` : ''}/t${t.trialIndex}`;
}

export function exportedFileName(t: Pick<RecordedTrialForExport, 'scenarioId' | 'model' | 'configKey' | 'trialIndex'>): string {
  return `${exportedScenarioId(t).slice('recorded/'.length).split('/').map(slug).join('--')}.yaml`;
}

/** The model as the recorded host described it (/api/show), in the stand-in's catalog terms. */
export function catalogEntryOf(model: string, exchanges: readonly StoredExchange[]): ScenarioCatalogDocument | undefined {
  const show = exchanges.find(
    (x) => x.path === '/api/show' && x.status === 200 && (x.request as { model?: string } | null)?.model === model,
  );
  if (!show) return undefined;
  let body: {
    details?: { family?: string; parameter_size?: string; quantization_level?: string };
    capabilities?: string[];
    model_info?: Record<string, unknown>;
  };
  try {
    body = JSON.parse(show.chunks.map(([, t]) => t).join(''));
  } catch {
    return undefined;
  }
  const known = ['completion', 'tools', 'thinking', 'vision', 'embedding', 'insert'] as const;
  const contextLength = Object.entries(body.model_info ?? {}).find(([k]) => k.endsWith('.context_length'))?.[1];
  return {
    name: model,
    family: body.details?.family || 'unknown',
    parameter_size: body.details?.parameter_size || '1B',
    ...(body.details?.quantization_level ? { quantization: body.details.quantization_level } : {}),
    capabilities: (body.capabilities ?? ['completion']).filter((c): c is (typeof known)[number] =>
      (known as readonly string[]).includes(c),
    ),
    ...(typeof contextLength === 'number' && contextLength > 0 ? { context_length: contextLength } : {}),
  };
}

export function scenarioFromRecording(source: Record<string, unknown>, t: RecordedTrialForExport): Record<string, unknown> {
  const turns = turnsFromExchanges(t.exchanges);
  const models = Object.keys(turns);
  const { profile, ...overrides } = t.config;
  const catalog = (source.catalog as ScenarioCatalogDocument[] | undefined) ?? [];
  const entry = catalogEntryOf(t.model, t.exchanges);
  const expect: unknown[] = [{ termination: t.terminationReason ?? 'completed' }, { iterations: t.iterations }];
  for (const type of PINNED_EVENTS) expect.push({ event: type, count: t.pathologies[type] ?? 0 });
  for (const reason of NUDGE_REASONS) {
    const count = t.pathologies[pathologyOfNudge(reason)];
    if (count) expect.push({ event: 'nudge', with: { reason, exhausted: { $ne: true } }, count });
  }
  if (t.pathologies.mid_chain_nudge)
    expect.push({ event: 'mid_chain_nudge', with: { exhausted: { $ne: true } }, count: t.pathologies.mid_chain_nudge });
  const { expect: _expect, script: _script, ...rest } = source;
  void _expect;
  void _script;
  return {
    ...rest,
    id: exportedScenarioId(t),
    title: `${t.title} (recorded: ${t.model} #${t.trialIndex}${t.configKey ? `, ${t.configKey}` : ''})`,
    profile: (profile as string | undefined) ?? t.profile,
    model: t.model,
    config: { ...((source.config as Record<string, unknown>) ?? {}), ...overrides },
    ...(entry ? { catalog: [...catalog.filter((c) => c.name !== t.model), entry] } : {}),
    script: models.length === 1 && models[0] === t.model ? turns[t.model] : turns,
    expect,
  };
}

/**
 * MCP server commands, arguments and working directories written relative to the scenario file
 * (`./…`, `../…`) made relative to where the exported file goes, so they still point at the same files.
 */
export function rebaseMcpPaths(source: Record<string, unknown>, fromDir: string, toDir: string): Record<string, unknown> {
  const servers = source.mcp_servers as Array<Record<string, unknown>> | undefined;
  if (!servers) return source;
  const rebase = (v: unknown) => {
    if (typeof v !== 'string' || !(v.startsWith('./') || v.startsWith('../'))) return v;
    const rel = path.relative(toDir, path.resolve(fromDir, v));
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  return {
    ...source,
    mcp_servers: servers.map((m) => ({
      ...m,
      ...(m.command !== undefined ? { command: rebase(m.command) } : {}),
      ...(Array.isArray(m.args) ? { args: m.args.map(rebase) } : {}),
      ...(m.cwd !== undefined ? { cwd: rebase(m.cwd) } : {}),
    })),
  };
}
