// What /api/ps shows of one model the GPU simulation holds: its expiry (keep_alive counted from now
// while requests run), its loaded context and runner, and its size on the GPU and in all. Pure.
import { isCloudModel, modelSizeBytes } from './standin-catalog';
import type { LoadedModelView, ModelRuntime } from './standin-gpu-types';
import { expiryAt, footprintBytes, kvBytesPerToken } from './standin-runner-rules';

/** undefined for a model /api/ps does not list: not loaded, or a cloud model */
export function loadedModelView(rt: ModelRuntime, timeScale: number, nowMs: number): LoadedModelView | undefined {
  if (rt.state !== 'loaded' || isCloudModel(rt.model) || !rt.runner) return undefined;
  const expiresAtMs = rt.active > 0 ? expiryAt(nowMs, rt.keepAliveMs, timeScale) : rt.expiresAtMs;
  const resolved = rt.runner.resolved;
  const onGpu = footprintBytes(rt.model, resolved);
  // CPU-only (vramBytes 0 or num_gpu 0): RAM holds the weights (~1.2× the file) and the KV cache
  const sizeBytes = onGpu > 0 ? onGpu : Math.round(modelSizeBytes(rt.model) * 1.2) + kvBytesPerToken(rt.model) * resolved.numCtx;
  return {
    model: rt.model,
    expiresAtMs,
    contextLength: resolved.numCtx,
    runnerId: rt.runner.id,
    sizeBytes,
    vramBytes: rt.runner.vramBytes,
  };
}
