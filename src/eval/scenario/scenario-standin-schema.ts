// A scenario's `standin:` block: the stand-in server's own settings, Ollama's environment
// (OLLAMA_CONTEXT_LENGTH, OLLAMA_MAX_LOADED_MODELS, OLLAMA_NUM_PARALLEL, OLLAMA_KEEP_ALIVE…), the
// simulated GPU and clock, the cloud sign-in state and the models warm at start. Stand-in runs only:
// against a real Ollama they do not apply.
import { z } from 'zod';
import { byteCount } from '../../session-spec/spec-bounds';
import { parseKeepAlive } from '../../standin/standin-request-fields';
import type { StandinOptions } from '../../standin/standin-script';
import { DEFAULT_MAX_LOADED_MODELS } from '../../standin/standin-runner-rules';

/** Ollama's keep_alive: seconds, or a Go duration string ("5m", "1h30m"); negative = forever. */
const keepAlive = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  const parsed = parseKeepAlive(value);
  if (parsed && !parsed.ok)
    ctx.addIssue({ code: 'custom', message: `not a keep_alive (seconds or a Go duration such as "5m"): ${parsed.error}` });
});

const numCtx = z.number().int().min(4).max(16_777_216);

const preload = z.strictObject({
  model: z.string().min(1),
  num_ctx: numCtx.optional(),
  num_batch: z.number().int().min(1).max(1_048_576).optional(),
  num_gpu: z.number().int().min(-1).max(100_000).optional(),
  keep_alive: keepAlive.optional(),
});

export const standinSettingsSchema = z
  .strictObject({
    /** what /api/version reports, and whose quirks the stand-in reproduces */
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'an Ollama version such as 0.30.4')
      .optional(),
    /** OLLAMA_CONTEXT_LENGTH: num_ctx of a request that sends none (default 4096) */
    context_length: numCtx.optional(),
    /** OLLAMA_MAX_LOADED_MODELS (default 3) */
    max_loaded_models: z.number().int().min(1).max(1024).optional(),
    /** the simulated GPU's memory (default 24 GiB) */
    gpu_vram_bytes: byteCount.optional(),
    /** multiplies load times, keep_alive and decode pacing (0.01: 100× faster) */
    time_scale: z.number().min(0).max(1000).optional(),
    /** cloud models: signed_in (default), signed_out (401 with signin_url), disabled (403) */
    cloud: z.enum(['signed_in', 'signed_out', 'disabled']).optional(),
    /** OLLAMA_NUM_PARALLEL: slots of a model without its own `parallel` */
    num_parallel: z.number().int().min(1).max(1024).optional(),
    /** OLLAMA_MAX_QUEUE: requests waiting for a load beyond it get 503 (default 512) */
    max_queue: z.number().int().min(1).max(1_000_000).optional(),
    /** OLLAMA_KEEP_ALIVE: keep_alive of a request that sends none (default 5m) */
    keep_alive: keepAlive.optional(),
    /** models already loaded at start, at these options */
    loaded: z.array(preload).optional(),
  })
  .superRefine((s, ctx) => {
    const max = s.max_loaded_models ?? DEFAULT_MAX_LOADED_MODELS;
    if (s.loaded && s.loaded.length > max)
      ctx.addIssue({
        code: 'custom',
        path: ['loaded'],
        message: `${s.loaded.length} models loaded at start, but max_loaded_models is ${max}`,
      });
    const seen = new Set<string>();
    s.loaded?.forEach((p, i) => {
      const key = p.model.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['loaded', i, 'model'], message: `${p.model} is loaded twice` });
      seen.add(key);
    });
  });

export type StandinSettingsDocument = z.infer<typeof standinSettingsSchema>;

/** The settings a scenario gives its stand-in, in the server's terms. */
export type StandinSettings = Pick<
  StandinOptions,
  | 'version'
  | 'defaultContextLength'
  | 'maxLoadedModels'
  | 'gpuVramBytes'
  | 'timeScale'
  | 'cloud'
  | 'numParallel'
  | 'maxQueue'
  | 'defaultKeepAlive'
  | 'loaded'
>;

export function toStandinSettings(d: StandinSettingsDocument): StandinSettings {
  const out: StandinSettings = {
    version: d.version,
    defaultContextLength: d.context_length,
    maxLoadedModels: d.max_loaded_models,
    gpuVramBytes: d.gpu_vram_bytes,
    timeScale: d.time_scale,
    cloud: d.cloud,
    numParallel: d.num_parallel,
    maxQueue: d.max_queue,
    defaultKeepAlive: d.keep_alive,
    loaded: d.loaded?.map((p) => ({
      model: p.model,
      numCtx: p.num_ctx,
      numBatch: p.num_batch,
      numGpu: p.num_gpu,
      keepAlive: p.keep_alive,
    })),
  };
  // unset keys stay out, so the server's defaults apply
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as StandinSettings;
}
