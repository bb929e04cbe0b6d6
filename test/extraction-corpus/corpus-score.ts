// Scores the extractor on the engine corpus: model outputs taken from the tool-call parser tests
// of other inference engines (one JSON file per engine, each case with the repository, path and
// commit it was read from). A positive case is right when the calls (and, where the source
// states it, the remaining text) are what the engine's test expects; a negative case — one the
// engine's parser rejects — is right when it yields no call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JsonSchema, LlmToolDefinition } from '../../src/provider/llm-types';
import { same } from '../../src/provider/ollama/tool-calls/extraction.test-kit';
import { parserFamilyOf, type ParserFamily } from '../../src/provider/ollama/tool-calls/policy/parser-family';
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

/** `family`: the reference parser the engine's test ran, where extraction reads that family apart */
export type Extract = (
  content: string,
  tools: LlmToolDefinition[],
  policy: ExtractionPolicy,
  family: ParserFamily | undefined,
) => ToolCallExtraction;

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

export interface CaseScore {
  id: string;
  right: boolean;
  calls: Array<[string, Record<string, unknown>]>;
  text: string;
}

/**
 * The family extraction is told, as an engine is told its parser: a case's family is named after
 * the engine's parser, which is named after its model line, so it reads as a model name would.
 */
export function familyOf(c: CorpusCase): ParserFamily | undefined {
  return parserFamilyOf(c.family);
}

export function scoreCase(c: CorpusCase, extract: Extract, policy: ExtractionPolicy): CaseScore {
  const r = extract(c.input, toolsOf(c), policy, familyOf(c));
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
