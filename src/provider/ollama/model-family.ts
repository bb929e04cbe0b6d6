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
 * Families that take a reasoning level ("low" | "medium" | "high") instead of a boolean: gpt-oss
 * (harmony) cannot stop reasoning and ignores true/false, so a level is the only way to bound it.
 */
export const THINK_LEVEL_FAMILIES: ReadonlySet<ModelFamily> = new Set<ModelFamily>(['gpt-oss']);

export type ThinkLevel = 'low' | 'medium' | 'high';
/** The `think` request field as Loupe sends it. */
export type ThinkValue = boolean | ThinkLevel;

export interface ThinkPreferences {
  /** thinking switched on (Loupe's default: off, so reasoning cannot eat num_predict) */
  enabled?: boolean;
  /** the level sent to level-taking families (default "low") */
  level?: ThinkLevel;
}

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
 * The `think` request field, from the model's /api/show capabilities rather than its name: a
 * thinking model thinks by default and spends num_predict on reasoning (empty content with
 * `length`), so it gets false unless thinking is switched on; a level-taking family gets a level;
 * a model without the capability, or whose capabilities are unknown, gets nothing (true would be
 * a 400, and older servers reject the field). Cloud models that advertise thinking keep it on:
 * their reasoning does not run against the local num_predict budget.
 */
export function thinkParam(
  model: string,
  details?: ModelDetailsLike | null,
  capabilities?: ModelCapabilities,
  prefs: ThinkPreferences = {},
): ThinkValue | undefined {
  if (has(capabilities, 'thinking') !== true) return undefined;
  if (THINK_LEVEL_FAMILIES.has(detectModelFamily(model, details))) return prefs.level ?? 'low';
  if (isCloudModel(model)) return true;
  return prefs.enabled ?? false;
}
