export type { MessageKind, MessageUnit, TranscriptMessage } from './transcript';
export { MESSAGE_KINDS } from './transcript';
export {
  COMPACTED_PLACEHOLDER,
  SYNTHETIC_INDEX,
  dropLeadingOrphans,
  findCallFor,
  groupUnits,
  isCompacted,
  isToolCallMessage,
  isToolResult,
  modelContent,
  splitPinned,
} from './transcript';
export {
  CODE_RATIO_HIGH,
  CODE_RATIO_LOW,
  CODE_TOKENS_PER_CHAR,
  MESSAGE_OVERHEAD_TOKENS,
  NON_ASCII_TOKENS_PER_CHAR,
  PROSE_TOKENS_PER_CHAR,
  codeCharRatio,
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateTokens,
  tokensPerChar,
  TOKEN_ESTIMATORS,
  type TokenEstimatorName,
} from './token-estimation';
export type { CappedToolResult } from './tool-result-cap';
export { toolResultCapFor } from './tool-result-cap';
export {
  JSON_HEAD_SHARE,
  JSON_TAIL_SHARE,
  MIN_TOOL_RESULT_CHARS,
  TOOL_RESULT_CHARS_PER_TOKEN,
  TOOL_RESULT_MAX_CONTEXT_SHARE,
  TOOL_RESULT_REMAINING_SHARE,
  calculateMaxToolResultChars,
  capToolResult,
} from './tool-result-cap';
export type { TrimDecision, TrimOptions, TrimSummary } from './trim';
export {
  KEEP_RECENT,
  MAX_MESSAGES,
  TRIM_BUDGET_RATIO,
  TRIM_NOTE_HEADER,
  TRIM_NOTE_MAX_LINES,
  decideTrim,
  formatKeyArgs,
  summarizeToolResult,
} from './trim';
export type { PruneDecision, PruneOptions } from './prune';
export {
  PRUNE_KEEP_TURNS,
  PRUNE_MINIMUM_CAP,
  PRUNE_MINIMUM_FLOOR,
  PRUNE_MINIMUM_SHARE,
  PRUNE_PROTECT_CAP,
  PRUNE_PROTECT_FLOOR,
  PRUNE_PROTECT_SHARE,
  applyPrune,
  decidePrune,
  defaultMinimumTokens,
  defaultProtectTokens,
  renderForModel,
} from './prune';
export type { CompactionRequest, CompactionResult, CompactionValidation } from './compaction';
export {
  COMPACTION_KEEP_TURNS,
  COMPACTION_SYSTEM_PROMPT,
  SUMMARY_HEADER,
  SUMMARY_INPUT_MESSAGE_CHARS,
  SUMMARY_INPUT_TOOL_OUTPUT_CHARS,
  SUMMARY_TEMPLATE,
  applyCompaction,
  buildCompactionRequest,
  summaryContent,
  validateCompaction,
} from './compaction';
export type { PromptFitOverflow } from './prompt-fit';
export { PROMPT_FIT_MARGIN, checkPromptFit } from './prompt-fit';

export type { ContextOverflowDecision, ContextRatioOverflow, UsableWindowOverflow, WillOverflow } from './overflow';
export {
  DEFAULT_RESERVED_OUTPUT_TOKENS,
  defaultReservedOutputTokens,
  isContextOverflow,
  isContextRatioExceeded,
  willOverflow,
} from './overflow';
