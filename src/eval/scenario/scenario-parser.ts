// YAML text → validated Scenario. Every problem is reported with file, line, column and field path.
import { createHash } from 'node:crypto';
import { DEFAULT_PROFILE } from '../../process/policies/loop-settings';
import * as path from 'node:path';
import { isMap, isSeq, LineCounter, type Document, type Node } from 'yaml';
import type { StandinModel } from '../../standin/standin-script';
import { formatPath, type ScenarioProblem } from './scenario-errors';
import { scenarioSchema, type ScenarioCatalogDocument, type ScenarioDocument } from './scenario-schema';
import type { ProviderOverrides, Scenario } from './scenario';
import { settingsOf } from '../../session-spec/session-settings';
import { toScript } from '../../session-spec/script';
import { toScenarioMcpServers } from './scenario-mcp-schema';
import { checkEntryOf, FalseChecks } from './scenario-check-lists';
import { regexHazards } from './regex-hazard';
import { readYaml } from './scenario-yaml';
import { explainIssue } from './union-issue';
import { unknownToolNames, type NameProblem } from './scenario-tool-names';
import { fileCheckProblems } from './scenario-file-checks';
import { camelKeys, keysWithin } from '../../common/camel-keys';
import { toStandinSettings } from './scenario-standin-schema';
import { solutionScript, toSolution } from './scenario-solution-schema';
import { findCatalogModel } from '../../standin/standin-catalog';
import { mergeCatalog } from '../standin-catalog-merge';
import { unknownNameMessage } from '../../common/closest-name';
import { unknownCovers } from '../coverage/spec-coverage';
import { catalogueIds } from '../coverage/catalogue-file';
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

/** `ollama:` in the provider's terms, and the optional second stand-in. */
function providerOf(ollama: ScenarioDocument['ollama']): { provider: ProviderOverrides; localStandin?: Scenario['localStandin'] } {
  const { local_standin: local, ...rest } = ollama ?? {};
  return {
    provider: keysWithin<ProviderOverrides>()(camelKeys(rest)),
    localStandin: local ? { catalog: local.catalog?.map(toModel) } : undefined,
  };
}

/** A key of `expect_by_profile` (a profile name): its problems point at the key, not at its list. */
function profileKey(issue: z.core.$ZodIssue): string | undefined {
  const [list, name] = issue.path;
  return list === 'expect_by_profile' && issue.path.length === 2 && typeof name === 'string' ? name : undefined;
}

const MAX_UNKNOWN_KEYS_NAMED = 20;

export function parseScenario(text: string, file: string, absFile: string = path.resolve(file)): ParseResult {
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined) => {
    const pos = lineCounter.linePos(offset ?? 0);
    return { line: pos.line, column: pos.col };
  };
  // too deep, repeated keys, syntax, an alias bomb: each where it sits
  const read = readYaml(text, lineCounter);
  if (!read.ok) {
    const problems = read.problems.map((p) => ({ file, ...at(p.offset), field: formatPath(p.path) || '(document)', message: p.message }));
    return { ok: false, problems };
  }
  const { doc, value } = read;
  // bad input the schema cannot see alone: a tool name no tool has, a file check outside the workspace
  const located = (found: NameProblem[]): ScenarioProblem[] =>
    found.map((p) => ({ file, ...at(nodeAt(doc, p.path)?.range?.[0]), field: formatPath(p.path), message: p.message }));
  const badNames = located([...unknownToolNames(value), ...fileCheckProblems(value), ...unknownCovers(value, catalogueIds)]);
  let parsed = scenarioSchema.safeParse(value);
  const problemsOf = (issues: readonly z.core.$ZodIssue[]) =>
    issues.flatMap((raw): ScenarioProblem[] => {
      const issue = explainIssue(raw);
      if (issue.code === 'unrecognized_keys') {
        // each is found by a scan of its mapping: thousands of them are named as a count, not one by one
        const named = issue.keys.slice(0, MAX_UNKNOWN_KEYS_NAMED).map((key) => {
          const node = keyNode(doc, issue.path, key);
          return { file, ...at(node?.range?.[0]), field: formatPath([...issue.path, key]), message: 'unknown field' };
        });
        const more = issue.keys.length - named.length;
        if (!more) return named;
        const field = formatPath(issue.path) || '(document)';
        return [...named, { file, ...at(nodeAt(doc, issue.path)?.range?.[0]), field, message: `and ${more} more unknown fields` }];
      }
      const key = profileKey(issue);
      const node = key === undefined ? nodeAt(doc, issue.path) : keyNode(doc, ['expect_by_profile'], key);
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
  const falseChecks = new FalseChecks();
  if (!parsed.success && parsed.error.issues.every((issue) => checkEntryOf(issue))) {
    for (const issue of parsed.error.issues) {
      const { list, index } = checkEntryOf(issue)!;
      falseChecks.add(list, index, problemsOf([issue]));
    }
    parsed = scenarioSchema.safeParse(falseChecks.placeholders(value as Record<string, unknown>));
  }
  if (!parsed.success || badNames.length) {
    const problems = [...(parsed.success ? [] : problemsOf(parsed.error.issues)), ...badNames];
    return { ok: false, problems: problems.sort((a, b) => a.line - b.line || a.column - b.column) };
  }
  // a regex that would backtrack catastrophically is bad input, not a false check: it would hang the judge
  const hazards = regexHazards(value);
  if (hazards.length)
    return {
      ok: false,
      problems: hazards.map((h) => ({ file, ...at(nodeAt(doc, h.path)?.range?.[0]), field: formatPath(h.path), message: h.message })),
    };
  const d = parsed.data;
  if (!d.expect && !d.success?.length) {
    const message = 'required field is missing: a scenario needs `expect` (checks of a scripted run) or `success` (of a live one)';
    return { ok: false, problems: [{ file, ...at(0), field: 'expect', message }] };
  }
  // a model warm at start must be one the stand-in lists
  const catalog = d.default_catalog ? mergeCatalog(d.catalog?.map(toModel)) : (d.catalog?.map(toModel) ?? []);
  const unlisted = (d.standin?.loaded ?? []).flatMap((p, i) =>
    findCatalogModel(catalog, p.model)
      ? []
      : [
          {
            file,
            ...at(nodeAt(doc, ['standin', 'loaded', i, 'model'])?.range?.[0]),
            field: `standin.loaded.${i}.model`,
            message: unknownNameMessage(
              "model in the stand-in's catalog",
              p.model,
              catalog.map((m) => m.name),
            ),
          },
        ],
  );
  if (unlisted.length) return { ok: false, problems: unlisted };
  const profiles = d.profile === undefined ? [DEFAULT_PROFILE] : [...new Set(Array.isArray(d.profile) ? d.profile : [d.profile])];
  // a list for a profile the scenario was written for would never judge anything: `expect` does there
  const written = Object.keys(d.expect_by_profile ?? {}).filter((p) => (profiles as string[]).includes(p));
  if (written.length) {
    const problems = written.map((p) => ({
      file,
      ...at(keyNode(doc, ['expect_by_profile'], p)?.range?.[0]),
      field: `expect_by_profile.${p}`,
      message: `the scenario is written for ${p} (its \`profile:\`): its trials there are judged by \`expect\``,
    }));
    return { ok: false, problems };
  }
  const byProfile = Object.entries(d.expect_by_profile ?? {}).map(([p, checks]) => [p, falseChecks.kept(['expect_by_profile', p], checks)]);
  return {
    ok: true,
    scenario: {
      id: d.id,
      title: d.title ?? d.id,
      spec: d.spec ?? '',
      ...(d.covers ? { covers: d.covers } : {}),
      version: d.version,
      file,
      hash: createHash('sha256').update(text).digest('hex'),
      model: d.model,
      modelLine: d.model ? at(keyNode(doc, [], 'model')?.range?.[0]).line : undefined,
      prompt: d.prompt,
      system: d.system,
      councilRole: d.council_role,
      profiles,
      ...settingsOf(d.config),
      workspaceFiles: d.workspace.files,
      tools: d.tools,
      catalog: d.catalog?.map(toModel),
      defaultCatalog: d.default_catalog,
      ...(d.standin ? { standin: toStandinSettings(d.standin) } : {}),
      // a task with a solution and no script: a scripted run replays the solution
      script: d.script === undefined && d.solution ? solutionScript(toSolution(d.solution)) : toScript(d.script),
      ...(d.solution ? { solution: toSolution(d.solution) } : {}),
      expect: d.expect ? falseChecks.kept(['expect'], d.expect) : [],
      success: d.success && falseChecks.kept(['success'], d.success),
      ...(byProfile.length ? { expectByProfile: Object.fromEntries(byProfile) as Scenario['expectByProfile'] } : {}),
      ...(falseChecks.unsatisfiable() ? { unsatisfiable: falseChecks.unsatisfiable() } : {}),
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
