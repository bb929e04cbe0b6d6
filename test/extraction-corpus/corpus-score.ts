// Scores the extractor on the engine corpus: model outputs taken from the tool-call parser tests
// of other inference engines (one JSON file per engine, each case with the repository, path and
// commit it was read from). A positive case is right when the calls (and, where the source
// states it, the remaining text) are what the engine's test expects; a negative case — one the
// engine's parser rejects — is right when it yields no call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JsonSchema, LlmToolDefinition } from '../../src/provider/llm-types';
import type { ExtractionPolicy, ToolCallExtraction } from '../../src/provider/ollama/tool-calls/types';

export interface CorpusTool {
  name: string;
  /** parameter name → JSON type, when the source declared them that way */
  properties?: Record<string, string>;
  /** the full parameters schema, when the source declared one */
  schema?: JsonSchema;
}

export interface CorpusCase {
  id: string;
  family: string;
  source: { repo: string; path: string; commit: string };
  input: string;
  tools: CorpusTool[];
  expected: Array<[string, Record<string, unknown>]>;
  /** the engine's parser rejects this output: no call is right */
  negative?: boolean;
  text?: string;
  note?: string;
}

export interface EngineCorpus {
  engine: string;
  repo: string;
  cases: CorpusCase[];
}

export type Extract = (content: string, tools: LlmToolDefinition[], policy: ExtractionPolicy) => ToolCallExtraction;

export function loadCorpus(dir: string = __dirname): EngineCorpus[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as EngineCorpus);
}

export function toolsOf(c: CorpusCase): LlmToolDefinition[] {
  return c.tools.map((t) => ({
    name: t.name,
    description: '',
    parameters: t.schema ?? {
      type: 'object',
      properties: Object.fromEntries(Object.entries(t.properties ?? {}).map(([k, type]) => [k, { type }])),
    },
  }));
}

/** JSON-equal, numbers compared by value. */
export function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

export interface CaseScore {
  id: string;
  right: boolean;
  calls: Array<[string, Record<string, unknown>]>;
  text: string;
}

export function scoreCase(c: CorpusCase, extract: Extract, policy: ExtractionPolicy): CaseScore {
  const r = extract(c.input, toolsOf(c), policy);
  const calls = r.calls.map((call) => [call.name, call.arguments] as [string, Record<string, unknown>]);
  const callsRight = c.negative ? calls.length === 0 : same(calls, c.expected);
  const textRight = c.text === undefined || r.text.trim() === c.text.trim();
  return { id: c.id, right: callsRight && textRight, calls, text: r.text };
}

export interface EngineScore {
  engine: string;
  right: number;
  total: number;
  wrong: string[];
}

export function scoreEngines(corpora: EngineCorpus[], extract: Extract, policy: ExtractionPolicy): EngineScore[] {
  return corpora.map((corpus) => {
    const scored = corpus.cases.map((c) => scoreCase(c, extract, policy));
    return {
      engine: corpus.engine,
      right: scored.filter((s) => s.right).length,
      total: scored.length,
      wrong: scored.filter((s) => !s.right).map((s) => s.id),
    };
  });
}
