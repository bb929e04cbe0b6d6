// YAML text → validated Scenario. Every problem is reported with file, line, column and field path.
import { createHash } from 'node:crypto';
import { DEFAULT_PROFILE } from '../../process/policies/loop-settings';
import * as path from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import type { StandinModel, StandinScript, StandinTurn } from '../../standin/standin-script';
import { formatPath, type ScenarioProblem } from './scenario-errors';
import { scenarioSchema, type ScenarioCatalogDocument, type ScenarioDocument, type ScenarioTurnDocument } from './scenario-schema';
import type { ProviderOverrides, Scenario } from './scenario';
import { settingsOf } from './scenario-settings';
import { toScenarioMcpServers } from './scenario-mcp-schema';
import { camelKeys, keysWithin } from '../../common/camel-keys';
import type { z } from 'zod';

function relativeToScenario(absFile: string, value: string): string {
  return value.startsWith('./') || value.startsWith('../') ? path.resolve(path.dirname(absFile), value) : value;
}

export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; problems: ScenarioProblem[] };

/** The node at `path`, or the deepest existing ancestor (a missing field points at its parent). */
function nodeAt(doc: Document, path: ReadonlyArray<PropertyKey>): Node | null {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown })?.value === key);
      if (!pair) break;
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
      node = node.items[key];
    } else {
      break;
    }
  }
  return (node as Node) ?? null;
}

function keyNode(doc: Document, parentPath: ReadonlyArray<PropertyKey>, key: string): Node | null {
  const parent = nodeAt(doc, parentPath);
  if (isMap(parent)) {
    const pair = parent.items.find((p) => (p.key as { value?: unknown })?.value === key);
    if (pair) return pair.key as Node;
  }
  return parent;
}

function toTurn(t: ScenarioTurnDocument): StandinTurn {
  const f = t.fault;
  return {
    content: t.content,
    thinking: t.thinking,
    toolCalls: t.tool_calls?.map((c) => ({ name: c.name, arguments: c.arguments })),
    doneReason: t.done_reason,
    promptEvalCount: t.prompt_eval_count,
    evalCount: t.eval_count,
    fault: !f
      ? undefined
      : f.kind === 'http'
        ? { kind: 'http', status: f.status, error: f.error, retryAfterSeconds: f.retry_after_seconds, times: f.times }
        : f.kind === 'delay_first_byte'
          ? { kind: 'delay_first_byte', ms: f.ms, times: f.times }
          : f.kind === 'stall'
            ? { kind: 'stall', afterChunks: f.after_chunks, ms: f.ms, times: f.times }
            : f.kind === 'disconnect'
              ? { kind: 'disconnect', afterChunks: f.after_chunks, times: f.times }
              : f.kind === 'malformed_line'
                ? { kind: 'malformed_line', afterChunks: f.after_chunks, times: f.times }
                : { kind: 'error_line', afterChunks: f.after_chunks, error: f.error, times: f.times },
  };
}

function toModel(m: ScenarioCatalogDocument): StandinModel {
  return {
    name: m.name,
    family: m.family,
    parameterSize: m.parameter_size,
    quantization: m.quantization,
    capabilities: m.capabilities,
    contextLength: m.context_length,
    vramBytes: m.vram_bytes,
    cloud: m.cloud,
    parallel: m.parallel,
    loadMs: m.load_ms,
    tokensPerSecond: m.tokens_per_second,
  };
}

export function toScript(script: ScenarioDocument['script']): StandinScript {
  if (script === undefined) return { turns: {} };
  if (Array.isArray(script)) return { turns: { '*': script.map(toTurn) } };
  return { turns: Object.fromEntries(Object.entries(script).map(([model, turns]) => [model, turns.map(toTurn)])) };
}

/** `ollama:` in the provider's terms, and the optional second stand-in. */
function providerOf(ollama: ScenarioDocument['ollama']): { provider: ProviderOverrides; localStandin?: Scenario['localStandin'] } {
  const { local_standin: local, ...rest } = ollama ?? {};
  return {
    provider: keysWithin<ProviderOverrides>()(camelKeys(rest)),
    localStandin: local ? { catalog: local.catalog?.map(toModel) } : undefined,
  };
}

/**
 * An issue inside one `expect:` or `success:` entry: a check that can never hold or
 * one malformed (a text where a mapping belongs, an unknown key or operator). Either way the entry
 * is a false expectation, not a malformed document.
 */
function insideCheck(issue: z.core.$ZodIssue): boolean {
  const [list, index] = issue.path;
  return (list === 'expect' || list === 'success') && typeof index === 'number';
}

export function parseScenario(text: string, file: string, absFile: string = path.resolve(file)): ParseResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => {
    const pos = lineCounter.linePos(offset ?? 0);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({ file, ...at(e.pos[0]), field: '', message: `YAML syntax error: ${e.message.split('\n')[0]}` })),
    };
  }
  let value: unknown;
  try {
    // the yaml library refuses documents whose aliases expand past a limit (a "billion laughs" bomb)
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    let firstAlias: number | undefined;
    visit(doc, {
      Alias: (_key, node) => {
        firstAlias = node.range?.[0];
        return visit.BREAK;
      },
    });
    return {
      ok: false,
      problems: [{ file, ...at(firstAlias), field: '', message: `YAML aliases expand too far (${(e as Error).message})` }],
    };
  }
  let parsed = scenarioSchema.safeParse(value);
  const problemsOf = (issues: readonly z.core.$ZodIssue[]) =>
    issues.flatMap((issue): ScenarioProblem[] => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => {
          const node = keyNode(doc, issue.path, key);
          return { file, ...at(node?.range?.[0]), field: formatPath([...issue.path, key]), message: 'unknown field' };
        });
      }
      const node = nodeAt(doc, issue.path);
      return [
        {
          file,
          ...at(node?.range?.[0]),
          field: formatPath(issue.path) || '(document)',
          message: issue.message
            .replace(/^Invalid input: /, '')
            .replace(/^expected (.+), received undefined$/, 'required field is missing (expected $1)'),
        },
      ];
    });
  // an expectation that can never hold (a name the journal does not have, an impossible count) or
  // that is malformed is a false expectation, not bad input: said up front, the scenario runs
  // without it, and it fails wherever its list is judged (a run gated on Loupe sees a failed check)
  const unsatisfiable = { expect: [] as ScenarioProblem[], success: [] as ScenarioProblem[] };
  const dropped = { expect: new Set<number>(), success: new Set<number>() };
  if (!parsed.success && parsed.error.issues.every(insideCheck)) {
    const without = { ...(value as Record<string, unknown>) };
    for (const issue of parsed.error.issues) {
      const [list, index] = issue.path as ['expect' | 'success', number];
      unsatisfiable[list].push(...problemsOf([issue]));
      dropped[list].add(index);
    }
    // each such entry keeps its place with a check that always holds (a list of only those is still
    // a list), and is dropped once parsed
    for (const list of ['expect', 'success'] as const) {
      const drop = dropped[list];
      if (drop.size) without[list] = (without[list] as unknown[]).map((x, i) => (drop.has(i) ? { iterations: { min: 0 } } : x));
    }
    parsed = scenarioSchema.safeParse(without);
  }
  if (!parsed.success) {
    const problems = problemsOf(parsed.error.issues);
    return { ok: false, problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
  }
  const d = parsed.data;
  if (!d.expect && !d.success?.length) {
    const message = 'required field is missing: a scenario needs `expect` (checks of a scripted run) or `success` (of a live one)';
    return { ok: false, problems: [{ file, ...at(0), field: 'expect', message }] };
  }
  const kept = <T>(list: 'expect' | 'success', checks: T[]) => checks.filter((_, i) => !dropped[list].has(i));
  return {
    ok: true,
    scenario: {
      id: d.id,
      title: d.title ?? d.id,
      spec: d.spec ?? '',
      version: d.version,
      file,
      hash: createHash('sha256').update(text).digest('hex'),
      model: d.model,
      modelLine: d.model ? at(keyNode(doc, [], 'model')?.range?.[0]).line : undefined,
      prompt: d.prompt,
      system: d.system,
      councilRole: d.council_role,
      profiles: d.profile === undefined ? [DEFAULT_PROFILE] : [...new Set(Array.isArray(d.profile) ? d.profile : [d.profile])],
      ...settingsOf(d.config),
      workspaceFiles: d.workspace.files,
      tools: d.tools,
      catalog: d.catalog?.map(toModel),
      defaultCatalog: d.default_catalog,
      script: toScript(d.script),
      expect: d.expect ? kept('expect', d.expect) : [],
      success: d.success && kept('success', d.success),
      ...(unsatisfiable.expect.length || unsatisfiable.success.length ? { unsatisfiable } : {}),
      permissions: d.permissions ? { default: d.permissions.default, tools: d.permissions.tools } : undefined,
      approvals: d.approvals?.map((a) => ({
        tool: a.tool,
        request: a.request,
        approve: a.decision === 'approve',
        reason: a.reason,
        afterMs: a.after_ms,
      })),
      mcpServers: d.mcp_servers && toScenarioMcpServers(d.mcp_servers, (v) => relativeToScenario(absFile, v)),
      ...providerOf(d.ollama),
      holdSlots: d.setup?.hold_slots?.map((h) => ({ model: h.model, releaseAfterMs: h.release_after_ms, releaseOn: h.release_on })),
      kill: d.kill,
      inject: d.inject,
    },
  };
}
