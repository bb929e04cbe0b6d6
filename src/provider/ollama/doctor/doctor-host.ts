// The doctor's reads of one Ollama host, through the provider's own transport: version, the model
// list, /api/show per model, and a one-turn chat probe timed from Loupe's side. No judgement here.
import type { ModelResponse, ShowResponse } from 'ollama';
import { classifyProviderError } from '../error-classifier';
import { LOAD_TIMEOUT_MS } from '../ollama-models';
import { createManagementClient } from '../ollama-transport';
import { contextLengthFrom } from './doctor-judgement';
import type { ThinkValue } from '../model-family';
import { canonicalModelName } from '../model-name';
import type { CloudAccess, ModelFacts, ProbeResult } from './doctor-types';

/** a host that does not answer a listing in this long is reported unreachable, not waited on */
const READ_TIMEOUT_MS = 10_000;

const reason = (e: unknown): string => {
  const message = classifyProviderError(e).message;
  return message || (e instanceof Error ? e.message : String(e));
};

export type HostListing = { ok: true; version: string | null; models: ModelResponse[] } | { ok: false; error: string };

/** /api/tags decides reachability; /api/version only adds the version (older proxies lack it). */
export async function readHost(host: string): Promise<HostListing> {
  const client = createManagementClient(host, AbortSignal.timeout(READ_TIMEOUT_MS));
  try {
    const [list, version] = await Promise.all([
      client.list(),
      client.version().then(
        (v) => v.version ?? null,
        () => null,
      ),
    ]);
    return { ok: true, version, models: list.models };
  } catch (e) {
    return { ok: false, error: reason(e) };
  }
}

export async function readModelFacts(host: string, listed: ModelResponse): Promise<ModelFacts> {
  const base: ModelFacts = {
    model: listed.name,
    sizeBytes: typeof listed.size === 'number' ? listed.size : null,
    parameterSize: listed.details?.parameter_size || null,
    quantization: listed.details?.quantization_level || null,
    family: listed.details?.family || null,
    capabilities: null,
    contextLength: contextLengthFrom({ details: listed.details }),
    showError: null,
  };
  try {
    const show = (await createManagementClient(host, AbortSignal.timeout(READ_TIMEOUT_MS)).show({ model: listed.name })) as ShowResponse & {
      capabilities?: string[];
    };
    return {
      ...base,
      parameterSize: show.details?.parameter_size || base.parameterSize,
      quantization: show.details?.quantization_level || base.quantization,
      family: show.details?.family || base.family,
      capabilities: show.capabilities ?? null,
      contextLength: contextLengthFrom(show) ?? base.contextLength,
    };
  } catch (e) {
    return { ...base, showError: reason(e) };
  }
}

const nsToMs = (ns: unknown): number | null => (typeof ns === 'number' && ns > 0 ? ns / 1e6 : null);

/** One short streamed turn; the first chunk's arrival is the time to first byte. A cold load can take minutes. */
export async function probeChat(
  host: string,
  input: { model: string; numCtx: number; think?: ThinkValue; timeoutMs?: number },
): Promise<ProbeResult> {
  const client = createManagementClient(host, AbortSignal.timeout(input.timeoutMs ?? LOAD_TIMEOUT_MS));
  const started = performance.now();
  let ttfbMs: number | null = null;
  try {
    const stream = await client.chat({
      model: input.model,
      messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
      stream: true,
      // a few tokens are enough to time eval; think:false keeps a thinking model from spending them on reasoning
      options: { num_ctx: input.numCtx, num_predict: 8 },
      ...(input.think === undefined ? {} : { think: input.think }),
    });
    for await (const chunk of stream) {
      ttfbMs ??= performance.now() - started;
      if (!chunk.done) continue;
      return {
        ok: true,
        latency: {
          ttfbMs,
          wallMs: performance.now() - started,
          loadMs: nsToMs(chunk.load_duration),
          promptEvalMs: nsToMs(chunk.prompt_eval_duration),
          evalMs: nsToMs(chunk.eval_duration),
          totalMs: nsToMs(chunk.total_duration),
        },
        promptEvalCount: typeof chunk.prompt_eval_count === 'number' ? chunk.prompt_eval_count : null,
        evalCount: typeof chunk.eval_count === 'number' ? chunk.eval_count : null,
        doneReason: chunk.done_reason ?? null,
      };
    }
    return { ok: false, error: 'the stream ended without a final (done) chunk' };
  } catch (e) {
    return { ok: false, error: reason(e) };
  }
}

/** /api/ps as the provider's GPU detection reads it; empty when the host cannot say. */
export async function readRunning(host: string): Promise<Array<{ name: string; size: number; size_vram?: number }>> {
  try {
    return (await createManagementClient(host, AbortSignal.timeout(READ_TIMEOUT_MS)).ps()).models;
  } catch {
    return [];
  }
}

/** The context each loaded model runs with (/api/ps `context_length`), by canonical name. */
export async function readLoadedContexts(host: string): Promise<Map<string, number>> {
  const running = (await readRunning(host)) as Array<{ name: string; context_length?: number }>;
  const out = new Map<string, number>();
  for (const m of running) if (typeof m.context_length === 'number') out.set(canonicalModelName(m.name), m.context_length);
  return out;
}

/**
 * A one-token chat to a cloud model: the host proxies it to ollama.com, which answers 401 with a
 * `signin_url` when the host is not signed in (403: cloud disabled, 429: quota). Plain fetch, as
 * ollama-js keeps only the error text of a refusal.
 */
export async function probeCloudAccess(host: string, model: string, timeoutMs = READ_TIMEOUT_MS): Promise<CloudAccess> {
  try {
    const res = await fetch(`${host}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'ok' }], stream: false, options: { num_predict: 1 } }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (res.ok) return { ok: true };
    let body: { error?: unknown; signin_url?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: the text is the error
    }
    return {
      ok: false,
      status: res.status,
      error: typeof body.error === 'string' ? body.error : text.trim() || res.statusText,
      ...(typeof body.signin_url === 'string' ? { signinUrl: body.signin_url } : {}),
    };
  } catch (e) {
    return { ok: false, status: null, error: reason(e) };
  }
}
