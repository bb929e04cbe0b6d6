// The options that decide which runner Ollama loads for a model: num_ctx, num_batch and num_gpu.
// A request whose values differ from the loaded runner's makes Ollama reload the model
// (server/sched.go, needsReload), so a load and every chat after it must send exactly the same
// ones. num_batch and num_gpu are sent only when configured: Ollama picks them itself otherwise.
// Pure.

/** A runner's options as Loupe sends them; unset = not sent (the server's default). */
export interface RunnerOptions {
  numCtx?: number;
  numBatch?: number;
  numGpu?: number;
}

/** The runner options of a request: cloud models have no local runner, so only num_ctx goes to them. */
export function runnerOptionsFor(input: { numCtx?: number; numBatch?: number; numGpu?: number; cloud: boolean }): RunnerOptions {
  const out: RunnerOptions = {};
  if (input.numCtx !== undefined) out.numCtx = input.numCtx;
  if (input.cloud) return out;
  if (input.numBatch !== undefined) out.numBatch = input.numBatch;
  if (input.numGpu !== undefined) out.numGpu = input.numGpu;
  return out;
}

/** The same options in Ollama's wire names, unset ones left out. */
export function wireRunnerOptions(r: RunnerOptions): { num_ctx?: number; num_batch?: number; num_gpu?: number } {
  return {
    ...(r.numCtx !== undefined ? { num_ctx: r.numCtx } : {}),
    ...(r.numBatch !== undefined ? { num_batch: r.numBatch } : {}),
    ...(r.numGpu !== undefined ? { num_gpu: r.numGpu } : {}),
  };
}

/** One string per distinct set of options (a cache key). */
export function runnerKey(r: RunnerOptions): string {
  return `ctx=${r.numCtx ?? '-'};batch=${r.numBatch ?? '-'};gpu=${r.numGpu ?? '-'}`;
}

export function sameRunner(a: RunnerOptions, b: RunnerOptions): boolean {
  return runnerKey(a) === runnerKey(b);
}
