// Text tool-call extraction for models whose calls arrive as text rather than native tool_calls.
export { extractToolCallsFromContent } from './extract-tool-calls';
export { parsePythonArgs, parsePythonCall, parsePythonCallList } from './calls/python-calls';
export { stripJsonToolCallArrays } from './calls/strip-json-arrays';
export { fuzzyMatchToolName, createToolResolver, toolResolverFor } from './names/name-resolution';
export type { NameResolution, ToolResolver } from './names/name-resolution';
export { normalizeToolArgs, normalizeToolArgsWithRepairs } from './arguments/arg-normalization';
export type { KeyMapping } from './arguments/arg-normalization';
export { coerceArgsToSchema } from './arguments/arg-coercion';
export type { Coercion } from './arguments/arg-coercion';
export { splitReasoning } from './scan/reasoning';
export type { ReasoningSplit } from './scan/reasoning';
export { runExtractJsonl } from './jsonl/extract-jsonl';
export { EXTRACTION_POLICIES } from './types';
export type {
  DropReason,
  DroppedCall,
  ExtractOptions,
  ExtractionPolicy,
  ExtractionRepair,
  ExtractionStrategy,
  NameRepairHow,
  ToolCallExtraction,
} from './types';
