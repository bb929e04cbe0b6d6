// Batch extraction over JSON Lines, for `loupe tools extract --jsonl`: one request per input line
// ({"id","input","tools"}, and optionally the "model" that wrote it or its parser "family", which
// decide how families that share markers are read), one result per output line ({"id","calls","text"}). A bad line is
// answered with {"id":null,"line":N,"error"} and the run goes on, so one broken record does not
// lose a corpus run. With a policy named (`--strict`), each result also lists the calls dropped and why.
import { createInterface } from 'node:readline';
import type { LlmToolDefinition } from '../../../llm-types';
import { extractToolCallsFromContent } from '../extract-tool-calls';
import { isParserFamily, PARSER_FAMILIES, type ParserFamily } from '../policy/parser-family';
import type { ExtractionPolicy } from '../types';

export interface ExtractJsonlSummary {
  lines: number;
  errors: number;
}

export interface ExtractJsonlOptions {
  /** unset: lenient, and the output lines keep their original shape */
  policy?: ExtractionPolicy;
}

export async function runExtractJsonl(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: ExtractJsonlOptions = {},
): Promise<ExtractJsonlSummary> {
  const reader = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let lines = 0;
  let errors = 0;
  for await (const line of reader) {
    lineNo++;
    if (line.trim() === '') continue;
    lines++;
    let record: string;
    try {
      const request = parseRequest(line);
      const result = extractToolCallsFromContent(request.input, request.tools, {
        policy: options.policy,
        model: request.model,
        family: request.family,
      });
      const answer: Record<string, unknown> = {
        id: request.id,
        calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
        text: result.text,
      };
      if (options.policy && result.dropped)
        answer.dropped = result.dropped.map((d) => ({ name: d.name, reason: d.reason, ...(d.detail ? { detail: d.detail } : {}) }));
      record = JSON.stringify(answer);
    } catch (err) {
      errors++;
      record = JSON.stringify({ id: null, line: lineNo, error: err instanceof Error ? err.message : String(err) });
    }
    if (!output.write(record + '\n')) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
  }
  return { lines, errors };
}

interface ExtractRequest {
  id: unknown;
  input: string;
  tools?: LlmToolDefinition[];
  model?: string;
  family?: ParserFamily;
}

function parseRequest(line: string): ExtractRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new Error(`invalid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
  const obj = value as Record<string, unknown>;
  if (typeof obj.input !== 'string') throw new Error('"input" must be a string');
  if (obj.model !== undefined && typeof obj.model !== 'string') throw new Error('"model" must be a string');
  if (obj.family !== undefined && !isParserFamily(obj.family)) throw new Error(`"family" must be one of ${PARSER_FAMILIES.join(', ')}`);
  return { id: obj.id ?? null, input: obj.input, tools: parseTools(obj.tools), model: obj.model, family: obj.family };
}

/** Tools as full definitions or as plain names. */
function parseTools(tools: unknown): LlmToolDefinition[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new Error('"tools" must be an array');
  return tools.map((t, i) => {
    if (typeof t === 'string' && t !== '') return { name: t, description: '', parameters: { type: 'object', properties: {} } };
    if (typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string') {
      const def = t as { name: string; description?: unknown; parameters?: unknown };
      const hasSchema = typeof def.parameters === 'object' && def.parameters !== null;
      const parameters = hasSchema ? def.parameters : { type: 'object', properties: {} };
      return { name: def.name, description: typeof def.description === 'string' ? def.description : '', parameters } as LlmToolDefinition;
    }
    throw new Error(`tools[${i}] must be a name or an object with a string "name"`);
  });
}
