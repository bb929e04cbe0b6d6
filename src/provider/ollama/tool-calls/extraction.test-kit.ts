// Shared by the extractor's spec files: a tool set, deterministic ids and a compact check.
import type { LlmToolDefinition } from '../../llm-types';
import { extractToolCallsFromContent } from './extract-tool-calls';
import type { ExtractionStrategy } from './types';

export const tool = (name: string, properties: Record<string, { type: string }> = {}, required: string[] = []): LlmToolDefinition => ({
  name,
  description: `test tool ${name}`,
  parameters: { type: 'object', properties, required },
});

export const TOOLS: LlmToolDefinition[] = [
  tool('open_page', { url: { type: 'string' } }, ['url']),
  tool('save_note', { title: { type: 'string' }, content: { type: 'string' } }, ['title', 'content']),
  tool('exec_shell', { command: { type: 'string' }, timeout: { type: 'integer' } }, ['command']),
  tool('lookup_stock', { ticker: { type: 'string' }, days: { type: 'integer' } }, ['ticker']),
  tool('ping'),
];

export const fixedIds = () => {
  let n = 0;
  return () => `call_test${String(n++).padStart(4, '0')}`;
};

export type Expected = { calls: Array<[string, Record<string, unknown>]>; text: string; strategies: ExtractionStrategy[] };

export function run(content: string, tools: LlmToolDefinition[] | undefined = TOOLS) {
  const r = extractToolCallsFromContent(content, tools, { generateId: fixedIds() });
  return {
    calls: r.calls.map((c) => [c.name, c.arguments] as [string, Record<string, unknown>]),
    text: r.text,
    strategies: r.strategies,
    full: r,
  };
}

export function check(content: string, expected: Expected, tools?: LlmToolDefinition[]) {
  const got = run(content, tools);
  expect({ calls: got.calls, text: got.text, strategies: got.strategies }).toEqual(expected);
}

/** Tools for the per-family tables: typed parameters, so schema typing shows. */
export const FAMILY_TOOLS: LlmToolDefinition[] = [
  tool('get_weather', { city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string' } }, ['city']),
  tool('search', { query: { type: 'string' }, limit: { type: 'integer' } }, ['query']),
  tool('write_file', { path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
  tool('set_flags', { enabled: { type: 'boolean' }, tags: { type: 'array' }, options: { type: 'object' }, ratio: { type: 'number' } }),
  tool('python', { code: { type: 'string' } }, ['code']),
];

export type Calls = Array<[string, Record<string, unknown>]>;

/** One row of a family table: what a reply in that format must yield. */
export interface FamilyCase {
  calls: Calls;
  /** the remaining prose, when the row is about it */
  text?: string;
  /** names of calls dropped as unknown */
  dropped?: string[];
  /** tools to declare instead of FAMILY_TOOLS ([] for none) */
  tools?: LlmToolDefinition[];
}

export function checkFamilyCase(content: string, expected: FamilyCase) {
  const got = run(content, expected.tools ?? FAMILY_TOOLS);
  expect(got.calls).toEqual(expected.calls);
  if (expected.text !== undefined) expect(got.text).toBe(expected.text);
  expect((got.full.dropped ?? []).map((d) => d.name)).toEqual(expected.dropped ?? []);
}

/** JSON-equal, numbers compared by value (also used by the engine-corpus scorer). */
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
