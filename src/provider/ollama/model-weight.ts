// How much of a host's slot capacity one request takes. Bigger local models use more VRAM and
// compute per request; cloud models use none locally, but each holds a proxied connection that
// is slow to finish, so they are weighted as half the host (at least 2) to cap their number.

import { isCloudModel, parseModelName } from './model-name';

export type ModelWeightSource = 'cloud' | 'details' | 'name' | 'unknown';

export interface ModelWeight {
  weight: number;
  /** parameter count in billions, when it could be read */
  parameterBillions?: number;
  source: ModelWeightSource;
}

export interface ModelWeightInput {
  model: string;
  /** /api/tags or /api/show details.parameter_size ("8.2B"), or a raw parameter count */
  parameterSize?: string | number | null;
  /** the host's current maxWeight (cloud weight scales with it) */
  maxWeight: number;
}

/** [minimum billions, weight], heaviest first; anything smaller (or unknown) weighs 1 */
export const LOCAL_WEIGHT_TIERS: ReadonlyArray<readonly [number, number]> = [
  [14, 3],
  [8, 2],
];

// dividing by an integer keeps "567M" at exactly 0.567 (multiplying by 1e-3 would not)
const toBillions: Record<string, (n: number) => number> = {
  k: (n) => n / 1e6,
  m: (n) => n / 1e3,
  b: (n) => n,
  t: (n) => n * 1e3,
};

// raw counts such as general.parameter_count (8030261248) are told apart by size
const RAW_COUNT_THRESHOLD = 1e6;

/**
 * Parses "8.2B", "70B", "567M", "1.5T", "8x7B" (mixture: 56B) or a raw count into billions.
 * Returns undefined for anything it cannot read rather than guessing.
 */
export function parseParameterSize(value: string | number | null | undefined): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= RAW_COUNT_THRESHOLD ? value / 1e9 : undefined;
  }
  if (!value) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:x\s*(\d+(?:\.\d+)?))?\s*([kmbt])?\s*$/i.exec(value);
  if (!match) return undefined;
  const [, first, second, unit] = match;
  if (!unit) {
    // a bare number is only meaningful as a raw parameter count
    const count = Number(first);
    return second === undefined && count >= RAW_COUNT_THRESHOLD ? count / 1e9 : undefined;
  }
  const billions = toBillions[unit.toLowerCase()](Number(first) * (second === undefined ? 1 : Number(second)));
  return billions > 0 ? billions : undefined;
}

// a size token inside a name: "14b", "0.5b", "270m", "8x7b", "e4b" (gemma3n effective size);
// it must start a word, so "q4_k_m", "fp16" and "llama3.2" never match
const NAME_SIZE = /(?:^|[^a-z0-9.])e?(\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)?[mbt])(?![a-z0-9])/;

/** Reads a size from the tag first ("qwen3:14b"), then from the name ("Llama-3.2-3B-Instruct"). */
export function parameterSizeFromModelName(model: string): number | undefined {
  const { base, tag } = parseModelName(model);
  for (const text of [tag, base]) {
    const match = NAME_SIZE.exec(text);
    if (match) return parseParameterSize(match[1]);
  }
  return undefined;
}

export function localWeightForBillions(billions: number | undefined): number {
  if (billions === undefined) return 1;
  for (const [minimum, weight] of LOCAL_WEIGHT_TIERS) {
    if (billions >= minimum) return weight;
  }
  return 1;
}

export function cloudModelWeight(maxWeight: number): number {
  return Math.max(2, Math.ceil(maxWeight / 2));
}

/** The weight and where it came from (for the slot_wait journal event). */
export function resolveModelWeight({ model, parameterSize, maxWeight }: ModelWeightInput): ModelWeight {
  if (isCloudModel(model)) return { weight: cloudModelWeight(maxWeight), source: 'cloud' };
  const fromDetails = parseParameterSize(parameterSize);
  if (fromDetails !== undefined) {
    return { weight: localWeightForBillions(fromDetails), parameterBillions: fromDetails, source: 'details' };
  }
  const fromName = parameterSizeFromModelName(model);
  if (fromName !== undefined) {
    return { weight: localWeightForBillions(fromName), parameterBillions: fromName, source: 'name' };
  }
  return { weight: 1, source: 'unknown' };
}

/** Not clamped to maxWeight here: the SlotLimiter clamps, so the raw figure stays visible. */
export function modelWeight(model: string, options: Omit<ModelWeightInput, 'model'>): number {
  return resolveModelWeight({ model, ...options }).weight;
}
