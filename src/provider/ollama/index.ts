// Public API of the pure (I/O-free) parts of the Ollama provider. Tool-call extraction lives in
// ./tool-calls, owned separately, and is not re-exported here.

export { SlotLimiter, SlotLimiterRegistry, DEFAULT_SLOT_WAIT_TIMEOUT_MS } from './slot-limiter';
export type { AcquireOptions, SlotLimiterOptions, SlotLimiterSnapshot, SlotStatus, SlotTimers } from './slot-limiter';

export {
  LOCAL_WEIGHT_TIERS,
  cloudModelWeight,
  localWeightForBillions,
  modelWeight,
  parameterSizeFromModelName,
  parseParameterSize,
  resolveModelWeight,
} from './model-weight';
export type { ModelWeight, ModelWeightInput, ModelWeightSource } from './model-weight';

export {
  DEFAULT_MAX_WEIGHT,
  GB,
  PARTIAL_OFFLOAD_RATIO,
  detectGpu,
  maxWeightForVram,
  resolveMaxWeight,
  shouldDetectGpu,
} from './gpu-tier';
export type { GpuDetection, MaxWeightConfig, ResolvedMaxWeight, RunningModelLike } from './gpu-tier';

export { ContextTooLongError, ProviderError, SlotWaitTimeoutError, ToolsUnsupportedError, toProviderError } from '../provider-errors';
export type { ProviderErrorInfo, ProviderErrorKind } from '../provider-errors';
export { classifyProviderError } from './error-classifier';
export { CLOUD_STREAM_IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS, STREAM_IDLE_TIMEOUT_MS, idleTimeoutFor, timeoutError } from './timeouts';
export type { TimeoutKind } from './timeouts';
export type { ClassifyContext } from './error-classifier';
export {
  BASE_DELAY_MS,
  MAX_JITTER_MS,
  MAX_RETRIES,
  MAX_RETRY_DELAY_MS,
  backoffDelayMs,
  parseRetryAfter,
  planRetry,
  shouldRetry,
} from './retry-policy';
export type { BackoffOptions, RetryPlan } from './retry-policy';

export { canonicalModelName, isCloudModel, parseModelName } from './model-name';
export type { ModelNameParts } from './model-name';
export {
  MODEL_FAMILIES,
  TEXT_BASED_TOOL_FAMILIES,
  THINKING_MODEL_FAMILIES,
  detectModelFamily,
  thinkParam,
  toolCallingDecision,
  toolCallingMode,
} from './model-family';
export type { ModelCapabilities, ModelDetailsLike, ModelFamily, ToolCallingDecision, ToolCallingMode } from './model-family';

export { TOOL_OUTPUT_CLOSE, TOOL_OUTPUT_OPEN, formatToolCallsAsText, formatToolOutput, neutralizeToolOutputDelimiters } from './text-tool-format';
export { FAMILY_TOOL_GUIDANCE, describeSchemaType, formatToolSchemas, getToolInstructionPrompt } from './tool-prompt-templates';
export type { ToolPromptOptions } from './tool-prompt-templates';
export { toNativeMessages, toOllamaTools, toTextModeMessages } from './text-mode-messages';
export type { OllamaWireMessage, OllamaWireTool, OllamaWireToolCall, TextModeOptions, WireMessageOptions } from './text-mode-messages';

export {
  DEFAULT_LOCAL_HOST,
  DEFAULT_OLLAMA_HOST,
  hostForModel,
  isLocalOllamaHost,
  isSameOllamaHost,
  mergeModelLists,
  normalizeOllamaHost,
} from './host-routing';
export type { HostRoute } from './host-routing';

export { MODEL_LIST_TTL_MS, ModelListCache } from './model-list-cache';
export type { ModelListCacheOptions } from './model-list-cache';

export { PULL_STATUS_RETENTION_MS, PullTracker, isPullFinished } from './pull-tracker';
export type { ModelPullStatus, PullProgress, PullStart, PullTimers, PullTrackerOptions } from './pull-tracker';
