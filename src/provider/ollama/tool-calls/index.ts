// Text tool-call extraction for models whose calls arrive as text rather than native tool_calls.
export { extractToolCallsFromContent } from './extract-tool-calls';
export { parsePythonArgs, parsePythonCall, parsePythonCallList } from './python-calls';
export { stripJsonToolCallArrays } from './strip-json-arrays';
export { fuzzyMatchToolName, createToolResolver, toolResolverFor } from './name-resolution';
export type { NameResolution, ToolResolver } from './name-resolution';
export { normalizeToolArgs, normalizeToolArgsWithRepairs } from './arg-normalization';
export type { KeyMapping } from './arg-normalization';
export { coerceArgsToSchema } from './arg-coercion';
export type { Coercion } from './arg-coercion';
export { splitReasoning } from './reasoning';
export type { ReasoningSplit } from './reasoning';
export { runExtractJsonl } from './extract-jsonl';
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
