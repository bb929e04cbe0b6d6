// How many weight units a host can run at once, from its GPU memory. Ollama exposes no card
// capacity, only what loaded models occupy (/api/ps size_vram), which is a lower bound: one small
// model on a large card looks like a small card. So a configured capacity wins when given, a
// partly offloaded model (the card is full) makes the sum a good estimate, and callers only ever
// raise the tier from a probe (see resolveMaxWeight), never lower it.

/** decimal gigabyte, as Ollama prints sizes */
export const GB = 1e9;

/** serial until a GPU is detected (or OLLAMA_MAX_PARALLEL says otherwise) */
export const DEFAULT_MAX_WEIGHT = 1;

/** a model below this share on the GPU runs partly on CPU */
export const PARTIAL_OFFLOAD_RATIO = 0.5;

/** The /api/ps model fields read here. */
export interface RunningModelLike {
  name: string;
  size: number;
  size_vram?: number | null;
}

export interface GpuDetection {
  gpuDetected: boolean;
  /** capacity when configured, else VRAM used by the loaded models */
  totalVramBytes: number;
  /** null: no GPU seen, stay serial */
  maxWeight: number | null;
  /** models with less than half of their size in VRAM (CPU-only ones included) */
  partialOffload: string[];
  /** true when totalVramBytes only counts loaded models and no model spilled to CPU */
  vramIsLowerBound: boolean;
}

export interface MaxWeightConfig {
  /** OLLAMA_MAX_PARALLEL */
  maxParallel?: number | null;
  /** OLLAMA_NUM_GPU; 0 forces CPU mode */
  numGpu?: number | null;
}

export interface ResolvedMaxWeight {
  maxWeight: number;
  source: 'config' | 'gpu' | 'default';
}

/** <10 GB → 3, 10–40 GB → 5, >40 GB → 8; no VRAM → null. */
export function maxWeightForVram(bytes: number): number | null {
  if (!Number.isFinite(bytes) || bytes <= 0) return null;
  if (bytes < 10 * GB) return 3;
  if (bytes <= 40 * GB) return 5;
  return 8;
}

export function detectGpu(models: readonly RunningModelLike[], options: { vramCapacityBytes?: number } = {}): GpuDetection {
  const usedVram = models.reduce((sum, model) => sum + Math.max(0, model.size_vram ?? 0), 0);
  const partialOffload = models
    .filter((model) => model.size > 0 && (model.size_vram ?? 0) < model.size * PARTIAL_OFFLOAD_RATIO)
    .map((model) => model.name);
  const capacity = options.vramCapacityBytes;
  const totalVramBytes = capacity !== undefined && capacity > 0 ? capacity : usedVram;
  const maxWeight = maxWeightForVram(totalVramBytes);
  return {
    gpuDetected: maxWeight !== null,
    totalVramBytes,
    maxWeight,
    partialOffload,
    vramIsLowerBound: totalVramBytes === usedVram && usedVram > 0 && partialOffload.length === 0,
  };
}

/** Whether to probe /api/ps at all: not when the limit is configured or the GPU is switched off. */
export function shouldDetectGpu(config: MaxWeightConfig): boolean {
  return configuredMaxParallel(config) === undefined && config.numGpu !== 0;
}

/**
 * OLLAMA_MAX_PARALLEL wins outright (detection skipped); otherwise a probe can only raise the
 * current limit, so a later probe that sees fewer models loaded never shrinks concurrency.
 */
export function resolveMaxWeight(
  config: MaxWeightConfig,
  detection?: GpuDetection | null,
  current: number = DEFAULT_MAX_WEIGHT,
): ResolvedMaxWeight {
  const configured = configuredMaxParallel(config);
  if (configured !== undefined) return { maxWeight: configured, source: 'config' };
  if (config.numGpu !== 0 && detection?.maxWeight != null && detection.maxWeight > current) {
    return { maxWeight: detection.maxWeight, source: 'gpu' };
  }
  return { maxWeight: current, source: current > DEFAULT_MAX_WEIGHT ? 'gpu' : 'default' };
}

function configuredMaxParallel(config: MaxWeightConfig): number | undefined {
  const value = config.maxParallel;
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}
