// What `loupe doctor` and GET /api/doctor report: facts read from an Ollama host, and the findings
// judged from them (doctor-judgement.ts). Plain data, so the table, the JSON and the API share it.
import type { ToolCallingDecision } from '../model-family';

export type FindingLevel = 'ok' | 'warn' | 'fail';

export interface Finding {
  /** what was checked: server, capabilities, tool_mode, num_ctx, slots, probe */
  check: string;
  level: FindingLevel;
  message: string;
}

/** A num_ctx Loupe would send, and where it comes from. */
export interface NumCtxSetting {
  /** the doctor's: default, OLLAMA_NUM_CTX or --num-ctx; an eval's preflight names the scenario or --set axis */
  source: 'default' | 'OLLAMA_NUM_CTX' | '--num-ctx' | (string & {});
  value: number;
}

/** What a one-token chat to a cloud model said of the host's ollama.com sign-in. */
export type CloudAccess = { ok: true } | { ok: false; status: number | null; error: string; signinUrl?: string };

/** The probe's timings: durations from the reply (ns there, ms here) and what Loupe measured. */
export interface ProbeLatency {
  /** request sent → first streamed chunk */
  ttfbMs: number;
  /** request sent → final chunk */
  wallMs: number;
  loadMs: number | null;
  promptEvalMs: number | null;
  evalMs: number | null;
  totalMs: number | null;
}

export type ProbeResult =
  | {
      ok: true;
      latency: ProbeLatency;
      promptEvalCount: number | null;
      evalCount: number | null;
      doneReason: string | null;
    }
  | { ok: false; error: string };

/** What the host says of one model (null: it did not say). */
export interface ModelFacts {
  model: string;
  sizeBytes: number | null;
  parameterSize: string | null;
  quantization: string | null;
  family: string | null;
  capabilities: string[] | null;
  contextLength: number | null;
  /** why /api/show gave nothing, when it failed */
  showError: string | null;
}

export interface ModelReport extends ModelFacts {
  /** cloud models only: the one-token sign-in check (null: skipped with --no-probe) */
  cloud?: CloudAccess | null;
  /** the context /api/ps shows the model loaded with (null: not loaded) */
  loadedContext?: number | null;
  toolMode: Pick<ToolCallingDecision, 'mode' | 'reason'>;
  /** share of the host's slot capacity one request takes */
  slotWeight: number;
  /** null: skipped (--no-probe, or a model that cannot chat) */
  probe: ProbeResult | null;
  findings: Finding[];
}

export interface DoctorReport {
  host: string;
  /** true when OLLAMA_HOST was unset and a stand-in was started for the check */
  standin: boolean;
  reachable: boolean;
  version: string | null;
  /** the slot limit Loupe's provider starts with, and where it comes from */
  slotLimit: { maxWeight: number; source: 'config' | 'gpu' | 'default' };
  numCtx: NumCtxSetting[];
  /** findings about the server itself (reachable, version, models asked for) */
  findings: Finding[];
  models: ModelReport[];
  /** the worst level of all findings */
  level: FindingLevel;
}
