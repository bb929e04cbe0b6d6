// Seeds. A run has one seed (`--seed`, or drawn at random and recorded); each trial's model requests
// carry a seed derived from it, the cell and the trial index, so two runs with the same run seed send
// the same seed trial by trial — and a resumed or queued trial, run anywhere, sends the one it would
// have sent. Pure.
import { hash, randomInt } from 'node:crypto';

/** Seeds are non-negative 31-bit integers: Ollama's `seed` is a signed int, and -1 means "random". */
export const MAX_SEED = 2 ** 31 - 1;

export interface SeedCell {
  scenarioId: string;
  model: string;
  configKey: string;
  trial: number;
}

/** The trial's seed: the first 31 bits of sha256 over the run seed, the cell and the trial index. */
export function trialSeed(runSeed: number, cell: SeedCell): number {
  // JSON keeps the parts apart: ('a/b', 'c') and ('a', 'b/c') hash differently
  // crypto.hash: one call, no Hash object (a trial's setup runs this once)
  const digest = hash('sha256', JSON.stringify([runSeed, cell.scenarioId, cell.model, cell.configKey, cell.trial]), 'buffer');
  return digest.readUInt32BE(0) & MAX_SEED;
}

/** A run seed for a run that was given none. */
export function drawRunSeed(): number {
  return randomInt(0, MAX_SEED + 1);
}

/** `--seed` (or the API's `seed`): the run seed, or why it is not one. */
export function parseRunSeed(value: string): { seed: number } | { problem: string } {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n > MAX_SEED)
    return { problem: `expected an integer from 0 to ${MAX_SEED}, got ${JSON.stringify(value)}` };
  return { seed: n };
}
