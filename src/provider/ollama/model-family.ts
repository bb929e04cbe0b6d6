// The ONE model-family detector. Everything family-dependent (tool-calling mode, think flag,
// prompt guidance) goes through detectModelFamily, so a family listed in a set below always
// matches its models (corvid had three disagreeing detectors, which left entries dead).
//
// The name is consulted before details.family: details.family is the GGUF architecture, not the
// model line (mistral:7b and hermes3 report "llama", kimi-k2 reports "deepseek2",
// deepseek-r1:7b reports "qwen2"), so trusting it first would silently move those models out of
// their families. details.family decides only when the name says nothing (custom names).

import { isCloudModel, parseModelName } from './model-name';

export { isCloudModel };

export const MODEL_FAMILIES = [
  'llama',
  'qwen2',
  'qwen3',
  'mistral',
  'devstral',
  'gemma',
  'phi',
  'deepseek',
  'deepseek-r1',
  'gpt-oss',
  'glm',
  'kimi',
  'minimax',
  'nemotron',
  'command-r',
  'hermes',
  'granite',
  'gemini',
  'unknown',
] as const;

export type ModelFamily = (typeof MODEL_FAMILIES)[number];

/** The fields of /api/tags and /api/show `details` this module reads. */
export interface ModelDetailsLike {
  family?: string | null;
  families?: readonly string[] | null;
  parameter_size?: string | null;
}

/** /api/show `capabilities` (completion, tools, thinking, vision, embedding, insert, …). */
export type ModelCapabilities = readonly string[] | null | undefined;

// Order matters: specific lines before the families they are built on
// (deepseek-r1 before deepseek, devstral before mistral, nemotron/hermes before llama,
// qwen3 before qwen2).
const FAMILY_PATTERNS: ReadonlyArray<readonly [ModelFamily, RegExp]> = [
  ['deepseek-r1', /deepseek-?r1|^r1-1776/],
  ['deepseek', /deepseek/],
  ['devstral', /devstral/],
  ['nemotron', /nemotron/],
  ['hermes', /hermes/],
  ['gpt-oss', /gpt-?oss/],
  ['qwen3', /qwen3/],
  ['qwen2', /qwen|qwq/],
  ['kimi', /kimi/],
  ['minimax', /minimax/],
  ['glm', /(?:^|[^a-z])(?:chat)?glm/],
  ['command-r', /command-?[ra](?![a-z])|cohere|c4ai/],
  ['granite', /granite/],
  ['gemini', /gemini/],
  ['mistral', /mistral|mixtral|magistral|codestral|pixtral/],
  ['gemma', /gemma/],
  ['phi', /(?:^|[^a-z])phi(?![a-z])/],
  ['llama', /llama|llava/],
];

function familyFromText(text: string | null | undefined): ModelFamily {
  if (!text) return 'unknown';
  const lower = text.toLowerCase();
  for (const [family, pattern] of FAMILY_PATTERNS) {
    if (pattern.test(lower)) return family;
  }
  return 'unknown';
}

export function detectModelFamily(model: string, details?: ModelDetailsLike | null): ModelFamily {
  const fromName = familyFromText(parseModelName(model).base);
  if (fromName !== 'unknown') return fromName;
  const fromFamily = familyFromText(details?.family);
  if (fromFamily !== 'unknown') return fromFamily;
  for (const family of details?.families ?? []) {
    const detected = familyFromText(family);
    if (detected !== 'unknown') return detected;
  }
  return 'unknown';
}

/**
 * Families that degrade with the native `tools` parameter, so they get tool instructions in the
 * system prompt and their calls are parsed from text. qwen3 covers qwen3.5/-coder/moe/next.
 * Cloud models are text-based regardless of family (the cloud proxy drops native tool_calls).
 */
export const TEXT_BASED_TOOL_FAMILIES: ReadonlySet<ModelFamily> = new Set<ModelFamily>([
  'qwen3',
  'kimi',
  'minimax',
  'gemini',
  'glm',
  'devstral',
  'nemotron',
  'gpt-oss',
]);

/**
 * Families whose local thinking can eat the whole num_predict budget and leave `content` empty;
 * they get `think: false` locally. gpt-oss is absent on purpose: it cannot stop reasoning and
 * ignores booleans.
 */
export const THINKING_MODEL_FAMILIES: ReadonlySet<ModelFamily> = new Set<ModelFamily>(['qwen3', 'deepseek-r1']);

export type ToolCallingMode = 'native' | 'text' | 'none';

export interface ToolCallingDecision {
  mode: ToolCallingMode;
  family: ModelFamily;
  reason: 'no_completion_capability' | 'cloud' | 'text_family' | 'no_tools_capability' | 'native';
}

const has = (capabilities: ModelCapabilities, capability: string): boolean | undefined =>
  capabilities ? capabilities.includes(capability) : undefined;

/**
 * How to offer tools to this model. A model without the `tools` capability gets text-based
 * tool calling instead of a guaranteed 400; unknown capabilities (no /api/show yet) default to
 * native, and the caller falls back to text on a tools_unsupported error.
 */
export function toolCallingDecision(
  model: string,
  details?: ModelDetailsLike | null,
  capabilities?: ModelCapabilities,
): ToolCallingDecision {
  const family = detectModelFamily(model, details);
  if (has(capabilities, 'completion') === false) return { mode: 'none', family, reason: 'no_completion_capability' };
  if (isCloudModel(model)) return { mode: 'text', family, reason: 'cloud' };
  if (TEXT_BASED_TOOL_FAMILIES.has(family)) return { mode: 'text', family, reason: 'text_family' };
  if (has(capabilities, 'tools') === false) return { mode: 'text', family, reason: 'no_tools_capability' };
  return { mode: 'native', family, reason: 'native' };
}

export function toolCallingMode(model: string, details?: ModelDetailsLike | null, capabilities?: ModelCapabilities): ToolCallingMode {
  return toolCallingDecision(model, details, capabilities).mode;
}

/**
 * The `think` request field: false for thinking families run locally (so the answer is not
 * empty), true for cloud models that advertise thinking, otherwise undefined (server default).
 * Never true unless the capability is known to be present: that would be a 400.
 */
export function thinkParam(model: string, details?: ModelDetailsLike | null, capabilities?: ModelCapabilities): boolean | undefined {
  const thinking = has(capabilities, 'thinking');
  if (isCloudModel(model)) return thinking === true ? true : undefined;
  if (!THINKING_MODEL_FAMILIES.has(detectModelFamily(model, details))) return undefined;
  // a known non-thinking build has nothing to switch off; older servers may reject the field
  return thinking === false ? undefined : false;
}
