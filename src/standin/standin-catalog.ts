// The stand-in's fake model library: a default catalog with realistic names, sizes and
// capabilities, and the lookups the endpoints share (by Ollama's case-insensitive name rules).
import { createHash } from 'node:crypto';

import type { StandinModel } from './standin-script';
import { isCloudName, modelKey, parseModelName, shortModelName } from './standin-model-name';

const GB = 1_000_000_000;

export const DEFAULT_STANDIN_CATALOG: readonly StandinModel[] = Object.freeze([
  {
    name: 'llama3.1:8b',
    family: 'llama',
    parameterSize: '8.0B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools'],
    sizeBytes: 4_920_753_328,
    vramBytes: 6_170_000_000,
    contextLength: 131_072,
  },
  {
    name: 'qwen3:8b',
    family: 'qwen3',
    parameterSize: '8.2B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools', 'thinking'],
    sizeBytes: 5_225_388_164,
    vramBytes: 6_550_000_000,
    contextLength: 40_960,
  },
  {
    name: 'qwen2.5:0.5b',
    family: 'qwen2',
    parameterSize: '494.03M',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools'],
    sizeBytes: 397_821_319,
    vramBytes: 1_040_000_000,
    contextLength: 32_768,
  },
  {
    name: 'gemma:2b',
    family: 'gemma',
    parameterSize: '3B',
    quantization: 'Q4_0',
    capabilities: ['completion'],
    sizeBytes: 1_678_456_656,
    vramBytes: 2_380_000_000,
    contextLength: 8_192,
  },
  {
    // Ollama reports mistral:7b with the llama architecture
    name: 'mistral:7b',
    family: 'llama',
    parameterSize: '7.2B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'tools'],
    sizeBytes: 4_372_824_384,
    vramBytes: 5_560_000_000,
    contextLength: 32_768,
  },
  {
    name: 'gpt-oss:120b-cloud',
    family: 'gptoss',
    parameterSize: '116.8B',
    quantization: 'MXFP4',
    capabilities: ['completion', 'tools', 'thinking'],
    sizeBytes: 384,
    vramBytes: 0,
    contextLength: 131_072,
    cloud: true,
  },
  {
    name: 'deepseek-r1:14b',
    family: 'qwen2',
    parameterSize: '14.8B',
    quantization: 'Q4_K_M',
    capabilities: ['completion', 'thinking'],
    sizeBytes: 8_988_112_040,
    vramBytes: 10_800_000_000,
    contextLength: 131_072,
  },
] satisfies StandinModel[]);

/** Alias kept for callers that import the catalog by this name. */
export const DEFAULT_CATALOG = DEFAULT_STANDIN_CATALOG;

/** The num_ctx a model is loaded with when the request sets none (Ollama's small-VRAM default). */
export const DEFAULT_NUM_CTX = 4096;

export const CLOUD_REMOTE_HOST = 'https://ollama.com:443';

export function isCloudModel(m: StandinModel): boolean {
  return m.cloud ?? isCloudName(m.name);
}

/** The name as /api/tags lists it: "llama3.2" → "llama3.2:latest". */
export function listedName(m: StandinModel): string {
  const parsed = parseModelName(m.name);
  if (!parsed) throw new Error(`stand-in catalog: invalid model name ${JSON.stringify(m.name)}`);
  return shortModelName(parsed);
}

/** Cloud stubs point at the upstream name without the -cloud / :cloud suffix. */
export function remoteModelName(m: StandinModel): string {
  const parsed = parseModelName(m.name);
  if (!parsed) return m.name;
  const tag = parsed.tag.toLowerCase();
  const base = shortModelName(parsed).replace(/:[^:]*$/, '');
  if (tag === 'cloud') return base;
  if (tag.endsWith('-cloud')) return `${base}:${parsed.tag.slice(0, -'-cloud'.length)}`;
  return shortModelName(parsed);
}

export function findCatalogModel(catalog: readonly StandinModel[], name: string): StandinModel | undefined {
  const key = modelKey(name);
  if (!key) return undefined;
  return catalog.find((m) => modelKey(m.name) === key);
}

/** Deterministic 64-hex manifest digest, so repeated runs list identical digests. */
export function modelDigest(m: StandinModel): string {
  return sha256Hex(`manifest:${listedName(m)}`);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function modelSizeBytes(m: StandinModel): number {
  if (m.sizeBytes !== undefined) return m.sizeBytes;
  if (isCloudModel(m)) return 384;
  return Math.round(parameterCount(m) * 0.6); // ~Q4 weights
}

export function modelVramBytes(m: StandinModel): number {
  if (isCloudModel(m)) return 0;
  return m.vramBytes ?? Math.round(modelSizeBytes(m) * 1.25);
}

/** "8.2B" → 8.2e9, "494.03M" → 4.9403e8; unparseable → 1B. */
export function parameterCount(m: StandinModel): number {
  const match = /^([\d.]+)\s*([KMBT]?)$/i.exec(m.parameterSize.trim());
  if (!match) return GB;
  const scale: Record<string, number> = { '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };
  return Math.round(Number(match[1]) * scale[match[2].toUpperCase()]);
}

/** api.ModelDetails, in Go field order. */
export function modelDetails(m: StandinModel): Record<string, unknown> {
  return {
    parent_model: '',
    format: isCloudModel(m) ? '' : 'gguf',
    family: m.family,
    families: [m.family],
    parameter_size: m.parameterSize,
    quantization_level: m.quantization ?? '',
  };
}
