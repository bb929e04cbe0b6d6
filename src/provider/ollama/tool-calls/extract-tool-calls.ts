// Extracts tool calls that a model wrote as text, in any of the formats local models print.
// Order of work: take reasoning out (calls drafted while thinking are not calls); let the
// explicit-marker scanners claim their regions; then, only when tools are declared, the loose
// scanners (bare JSON, name + JSON, bare Python calls) look at what is left and keep only calls
// naming a declared tool; finally resolve names, repair argument keys and types, and rebuild the
// remaining prose. Everything is reported so the agent loop can journal it.
import type { LlmToolCall, LlmToolDefinition } from '../../llm-types';
import { coerceArgsToSchema } from './arg-coercion';
import { normalizeToolArgsWithRepairs } from './arg-normalization';
import { buildBracketIndex, type BracketIndex } from './bracket-index';
import { createCallId } from './call-id';
import { scanTaggedBlocks } from './formats/tagged-blocks';
import { scanGemma } from './formats/gemma';
import { scanHarmony } from './formats/harmony';
import { scanLooseJson } from './formats/loose-json';
import { scanLooseLines } from './formats/loose-lines';
import { scanDanglingClosers, scanMarkers } from './formats/markers';
import { scanMistral } from './formats/mistral';
import { scanReact } from './formats/react';
import { scanSpecialTokens } from './formats/special-tokens';
import { scanXmlTags } from './formats/xml-tags';
import { createToolResolver, type ToolResolver } from './name-resolution';
import { splitReasoning } from './reasoning';
import { addNonOverlapping, selectSpans, tidySpans, withoutOverlap } from './span-selection';
import { removeRegions } from './text-join';
import type { CallSpan, ExtractOptions, ExtractionRepair, ExtractionStrategy, RawCall, ToolCallExtraction } from './types';

export function extractToolCallsFromContent(
  content: string,
  tools?: LlmToolDefinition[],
  options: ExtractOptions = {},
): ToolCallExtraction {
  try {
    return extract(typeof content === 'string' ? content : '', tools, options);
  } catch {
    // the scanners are written not to throw; this is the last guard for an agent loop that must go on
    return { calls: [], text: typeof content === 'string' ? content.trim() : '', strategy: null, strategies: [], repairs: [] };
  }
}

function extract(content: string, tools: LlmToolDefinition[] | undefined, options: ExtractOptions): ToolCallExtraction {
  const { visible, thinking } = splitReasoning(content);
  const resolver = createToolResolver(tools);
  const hasTools = resolver.tools.length > 0;

  const candidates = [
    ...scanTaggedBlocks(visible),
    ...scanXmlTags(visible),
    ...scanMistral(visible),
    ...scanSpecialTokens(visible),
    ...scanHarmony(visible),
    ...scanGemma(visible),
    ...scanReact(visible),
  ];
  const refused = new Set(candidates.filter((span) => !acceptExplicit(span, resolver)));
  const explicit = selectSpans(candidates.filter((span) => !refused.has(span)));

  let spans = explicit;
  if (hasTools) {
    const index = lazyBracketIndex(visible);
    const isKnownName = (name: string) => resolver.resolve(name) !== undefined;
    const isKnown = (call: RawCall) => resolver.resolve(call.name, call.arguments) !== undefined;
    const loose = selectSpans([...scanLooseJson(visible, index, isKnown), ...scanLooseLines(visible, index, isKnownName, isKnown)]);
    // a block refused above (cut off, unknown tool) is not re-read as a loose call either
    spans = addNonOverlapping(spans, withoutOverlap(loose, selectSpans([...refused])));
  }
  spans = addNonOverlapping(spans, selectSpans(scanDanglingClosers(visible, spans)));
  spans = tidySpans(visible, addNonOverlapping(spans, selectSpans(scanMarkers(visible))));

  const built = buildCalls(spans, resolver, options.generateId ?? createCallId);
  const text = removeRegions(visible, spans);
  const result: ToolCallExtraction = {
    calls: built.calls,
    text,
    strategy: built.strategies[0] ?? null,
    strategies: built.strategies,
    repairs: built.repairs,
  };
  if (thinking.length > 0) result.thinking = thinking.join('\n\n');
  return result;
}

/**
 * A closed explicit block is a call even with an unknown name (the loop answers "Unknown tool").
 * A block the output cut off (no closing marker) is trusted only when it names a declared tool
 * and carries the arguments that tool requires: otherwise it is probably half a call.
 */
function acceptExplicit(span: CallSpan, resolver: ToolResolver): boolean {
  if (span.calls.length === 0 || span.closed || resolver.tools.length === 0) return true;
  return span.calls.every((call) => {
    const found = resolver.resolve(call.name, call.arguments);
    if (!found) return false;
    const tool = resolver.tool(found.name);
    const required = tool?.parameters?.required ?? [];
    const args = normalizeToolArgsWithRepairs(argumentsOf(call, tool), tool).args;
    return required.every((key) => key in args);
  });
}

interface BuiltCalls {
  calls: LlmToolCall[];
  strategies: ExtractionStrategy[];
  repairs: ExtractionRepair[];
}

function buildCalls(spans: readonly CallSpan[], resolver: ToolResolver, generateId: () => string): BuiltCalls {
  const out: BuiltCalls = { calls: [], strategies: [], repairs: [] };
  const explicitKeys = new Set<string>();
  for (const span of spans) {
    for (const raw of span.calls) {
      const found = resolver.resolve(raw.name, raw.arguments);
      if (!found && !span.explicit) continue;
      const name = found?.name ?? raw.name;
      const tool = found ? resolver.tool(found.name) : undefined;
      const callIndex = out.calls.length;
      const repairs: ExtractionRepair[] = [];
      if (found && found.how !== 'exact') repairs.push({ kind: 'tool_name_repaired', callIndex, from: raw.name, to: name, how: found.how });
      let args = argumentsOf(raw, tool);
      if (tool) {
        const normalized = normalizeToolArgsWithRepairs(args, tool);
        for (const m of normalized.mappings) repairs.push({ kind: 'tool_args_normalized', callIndex, from: m.from, to: m.to });
        const coerced = coerceArgsToSchema(normalized.args, tool.parameters);
        for (const c of coerced.coercions) repairs.push({ kind: 'arg_coerced', callIndex, key: c.key, from: c.from, to: c.to });
        args = coerced.args;
      }
      // a bare JSON echo of a call already made with markers is the same call, not a second one
      const key = `${name}\u0000${JSON.stringify(args)}`;
      if (span.explicit) explicitKeys.add(key);
      else if (explicitKeys.has(key)) continue;
      out.calls.push({ id: generateId(), name, arguments: args });
      out.repairs.push(...repairs);
      if (span.strategy && !out.strategies.includes(span.strategy)) out.strategies.push(span.strategy);
    }
  }
  return out;
}

/** The call's arguments with positional values and plain-text input placed on the tool's parameters. */
function argumentsOf(raw: RawCall, tool: LlmToolDefinition | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = { ...raw.arguments };
  const params = Object.keys(tool?.parameters?.properties ?? {});
  const positional = raw.positional ?? [];
  if (positional.length === 1 && isPlainObject(positional[0]) && Object.keys(args).length === 0) {
    return { ...(positional[0] as Record<string, unknown>) }; // name({"k": "v"})
  }
  positional.forEach((value, i) => {
    const key = params[i] !== undefined && !(params[i] in args) ? params[i] : `arg${i}`;
    args[key] = value;
  });
  if (raw.inputText !== undefined && Object.keys(args).length === 0) {
    const required = tool?.parameters?.required ?? [];
    const target = params.length === 1 ? params[0] : required.length === 1 ? required[0] : 'input';
    args[target] = raw.inputText;
  }
  return args;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The index is built on first use: most replies have no braces at all and never need it. */
function lazyBracketIndex(text: string): BracketIndex {
  let built: BracketIndex | undefined;
  return { matchOf: (i: number) => (built ??= buildBracketIndex(text)).matchOf(i) };
}
