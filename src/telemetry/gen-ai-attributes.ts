// OpenTelemetry GenAI semantic-convention names we emit, pinned to semconv v1.41 (all gen_ai.* are
// "Development" upstream; the incubating JS entry point can break in minor releases, so they live here).
// v1.41 is the last release before the GenAI conventions moved to their own repository; a unit test
// checks every GEN_AI name against that registry. Proposed names (gen_ai.agent.turn.index) are not
// emitted: the turn index is loupe.turn.index. Harness-specific fields use the private `loupe.*` namespace.

export const GEN_AI = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  /** deprecated in v1.41 in favour of gen_ai.provider.name; still emitted on chat spans for older backends */
  SYSTEM_DEPRECATED: 'gen_ai.system',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_STREAM: 'gen_ai.request.stream',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  /** seconds */
  RESPONSE_TIME_TO_FIRST_CHUNK: 'gen_ai.response.time_to_first_chunk',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  AGENT_NAME: 'gen_ai.agent.name',
  AGENT_ID: 'gen_ai.agent.id',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  ERROR_TYPE: 'error.type',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
} as const;

export const GEN_AI_OPERATION = {
  CHAT: 'chat',
  EXECUTE_TOOL: 'execute_tool',
  INVOKE_AGENT: 'invoke_agent',
} as const;

export const GEN_AI_PROVIDER_OLLAMA = 'ollama';

export const LOUPE_ATTR = {
  SESSION_ID: 'loupe.session.id',
  TRIAL_ID: 'loupe.trial.id',
  RUN_ID: 'loupe.run.id',
  SCENARIO_ID: 'loupe.scenario.id',
  PROFILE: 'loupe.profile',
  TURN_INDEX: 'loupe.turn.index',
  TERMINATION_REASON: 'loupe.termination_reason',
  TOOL_CALL_SOURCE: 'loupe.tool_call.source',
  SLOT_WAIT_MS: 'loupe.slot.wait_ms',
  SLOT_QUEUE_POSITION: 'loupe.slot.queue_position',
  // the latency split of one model call (on its chat span, and on the iteration span for the loop's own calls)
  LOAD_MS: 'loupe.ollama.load_ms',
  PREFILL_MS: 'loupe.ollama.prompt_eval_ms',
  DECODE_MS: 'loupe.ollama.eval_ms',
  SERVER_QUEUE_MS: 'loupe.ollama.server_queue_ms',
  FIRST_TOKEN_MS: 'loupe.latency.first_token_ms',
  WALL_MS: 'loupe.latency.wall_ms',
  /** on the Ollama phase spans: load, queue, prefill or decode */
  OLLAMA_PHASE: 'loupe.ollama.phase',
  RETRY_ATTEMPT: 'loupe.retry.attempt',
} as const;

/** The phases of one Ollama call, in the order they happen, each a child span of its chat span. */
export const OLLAMA_PHASES = ['load', 'queue', 'prefill', 'decode'] as const;
export type OllamaPhase = (typeof OLLAMA_PHASES)[number];

export const SPAN_NAMES = {
  invokeAgent: (agent: string) => `invoke_agent ${agent}`,
  chat: (model: string) => `chat ${model}`,
  executeTool: (tool: string) => `execute_tool ${tool}`,
  ollamaPhase: (phase: OllamaPhase) => `ollama ${phase}`,
  agentTurn: 'agent_turn',
  slotWait: 'slot_wait',
} as const;
