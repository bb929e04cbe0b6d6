// The doctor for Loupe's configuration, shared by `loupe doctor` and GET /api/doctor: OLLAMA_HOST
// when set, else a stand-in started for the check (the same backend an unset OLLAMA_HOST gives a
// run) and stopped after it; num_ctx and the slot settings as the provider reads them.
import type { LoupeConfig } from '../../../config/loupe-config';
import { mergeCatalog } from '../../../eval/standin-catalog-merge';
import { DEFAULT_APPROVAL_TIMEOUT_MS, DEFAULT_NUM_CTX } from '../../../process/policies/loop-settings';
import { StandinServer } from '../../../standin/standin-server';
import { numCtxSettings } from './doctor-judgement';
import type { DoctorReport } from './doctor-types';
import { runDoctor } from './run-doctor';

export interface DoctorRequest {
  models?: string[];
  /** default true */
  probe?: boolean;
  /** a num_ctx to check beside Loupe's default (--num-ctx) */
  numCtx?: number;
}

/** Every stand-in model answers the probe with one short turn, as often as it is asked. */
const PROBE_SCRIPT = { turns: { '*': [{ content: 'ok' }] }, loop: true };

export async function doctorForConfig(ollama: LoupeConfig['ollama'], req: DoctorRequest): Promise<DoctorReport> {
  const standin = ollama.host ? null : new StandinServer({ catalog: mergeCatalog(), script: PROBE_SCRIPT });
  try {
    return await runDoctor({
      host: ollama.host ?? (await standin!.start(0)).url,
      standin: Boolean(standin),
      models: req.models ?? [],
      probe: req.probe ?? true,
      numCtx: numCtxSettings(ollama.numCtx, req.numCtx, DEFAULT_NUM_CTX),
      maxParallel: ollama.maxParallel,
      numGpu: ollama.numGpu,
      keepAliveMs: ollama.keepAlive?.ms,
      approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
    });
  } finally {
    await standin?.stop();
  }
}
