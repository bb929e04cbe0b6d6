// The progress lines of `ollama pull`: pulling manifest, one "pulling <12hex>" series per layer
// (digest/total/completed), verifying sha256 digest, writing manifest, success. Pure: the handler
// paces and writes what this returns.
import type { StandinModel } from './standin-script';
import { isCloudModel, listedName, modelSizeBytes, sha256Hex } from './standin-catalog';

export interface PullProgress {
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
}

export interface PullLayer {
  digest: string; // "sha256:<64 hex>"
  size: number;
}

/** Weights, template, license and params layers, like a library model's manifest. */
export function modelLayers(m: StandinModel): PullLayer[] {
  const name = listedName(m);
  const layer = (kind: string, size: number): PullLayer => ({ digest: `sha256:${sha256Hex(`${name}:${kind}`)}`, size });
  if (isCloudModel(m)) return [layer('config', modelSizeBytes(m))];
  const small = [layer('template', 1429), layer('license', 11_340), layer('params', 96)];
  const smallTotal = small.reduce((n, l) => n + l.size, 0);
  return [layer('model', Math.max(1, modelSizeBytes(m) - smallTotal)), ...small];
}

/** ProgressResponse without zero fields (Go omitempty). */
function progress(status: string, digest?: string, total?: number, completed?: number): PullProgress {
  const p: PullProgress = { status };
  if (digest) p.digest = digest;
  if (total) p.total = total;
  if (completed) p.completed = completed;
  return p;
}

/**
 * Every line of a successful pull. A layer already on disk (`installed`) gets one line with
 * completed == total; a layer being downloaded gets `steps` lines of growing `completed`.
 */
export function pullProgressLines(m: StandinModel, installed: boolean, steps = 4): PullProgress[] {
  const lines: PullProgress[] = [progress('pulling manifest')];
  for (const l of modelLayers(m)) {
    const label = `pulling ${l.digest.slice('sha256:'.length, 'sha256:'.length + 12)}`;
    const n = installed || l.size < 1_000_000 ? 1 : Math.max(1, Math.floor(steps));
    for (let i = 1; i <= n; i++) lines.push(progress(label, l.digest, l.size, Math.round((l.size * i) / n)));
  }
  lines.push(progress('verifying sha256 digest'), progress('writing manifest'), progress('success'));
  return lines;
}

export const PULL_UNKNOWN_MODEL_ERROR = 'pull model manifest: file does not exist';
