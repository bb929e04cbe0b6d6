// POST /api/chat and /api/generate: Ollama's validation order and error texts, the load/unload
// special cases, then a scripted turn through the GPU simulation and onto the wire.
import type { StandinModel } from './standin-script';
import type { RouteHandler, StandinContext } from './standin-context';
import {
  CHAT_REQUEST_FIELDS,
  GENERATE_REQUEST_FIELDS,
  checkFieldTypes,
  checkOptions,
  goQuote,
  parseJsonBody,
  parseKeepAlive,
  parseThink,
  thinkEnabled,
  type ThinkValue,
} from './standin-request-fields';
import { CLOUD_REMOTE_HOST, isCloudModel, remoteModelName } from './standin-catalog';
import { fullModelName, parseModelName } from './standin-model-name';
import { chatChunk, generateChunk, type RemoteInfo } from './standin-chat-wire';
import { defaultHttpFaultError } from './standin-fault';
import { formatGoTime, nowMs, nowNs } from './standin-go-json';
import { QueueFullError, type RunnerOptions, type SlotLease } from './standin-gpu';
import { scaleRate } from './standin-runner-rules';
import { sendError, sendJson } from './standin-http';
import { planReply } from './standin-reply-plan';
import { runGeneration } from './standin-generation';
import { prepareReply } from './standin-request-prompt';
import { scaleMs } from './standin-runner-rules';
import { isAbortError } from './standin-async';

type Kind = 'chat' | 'generate';

export const handleChat: RouteHandler = (ctx) => handleInference(ctx, 'chat');
export const handleGenerate: RouteHandler = (ctx) => handleInference(ctx, 'generate');

/** gpt-oss (harmony) always reasons; think:false does not turn it off. */
function alwaysThinks(m: StandinModel): boolean {
  return m.family === 'gptoss' || m.family === 'gpt-oss';
}

function remoteInfo(m: StandinModel): RemoteInfo | undefined {
  return isCloudModel(m) ? { remoteModel: remoteModelName(m), remoteHost: CLOUD_REMOTE_HOST } : undefined;
}

function doneOnly(kind: Kind, model: string, reason: 'load' | 'unload'): Record<string, unknown> {
  const build = kind === 'chat' ? chatChunk : generateChunk;
  return build({ model, createdAt: formatGoTime(nowNs()), piece: {}, done: true, doneReason: reason });
}

interface Validated {
  modelName: string;
  model: StandinModel;
  body: Record<string, unknown>;
  think: ThinkValue | undefined;
  keepAliveMs: number | null;
  unloadRequested: boolean;
  numCtx?: number;
  /** num_ctx / num_batch / num_gpu as sent: a change reloads the model */
  runner: RunnerOptions;
}

/** Everything Ollama checks before scheduling; answers the error and returns undefined on failure. */
function validate(ctx: StandinContext, kind: Kind): Validated | undefined {
  const { res, state } = ctx;
  const fail = (status: number, message: string): undefined => {
    sendError(res, status, message);
    return undefined;
  };
  const parsed = parseJsonBody(ctx.rawBody);
  if (!parsed.ok) return fail(400, parsed.error);
  const fields = kind === 'chat' ? CHAT_REQUEST_FIELDS : GENERATE_REQUEST_FIELDS;
  const typeError = checkFieldTypes(parsed.value, kind === 'chat' ? 'ChatRequest' : 'GenerateRequest', fields);
  if (typeError) return fail(400, typeError);
  const body = parsed.value as Record<string, unknown>;
  const think = parseThink(body.think);
  if (!think.ok) return fail(400, think.error);
  const keepAlive = parseKeepAlive(body.keep_alive);
  if (keepAlive && !keepAlive.ok) return fail(400, keepAlive.error);
  const topLogprobs = body.top_logprobs;
  if (typeof topLogprobs === 'number' && (topLogprobs < 0 || topLogprobs > 20)) {
    return fail(400, 'top_logprobs must be between 0 and 20');
  }
  const modelName = typeof body.model === 'string' ? body.model : '';
  ctx.record.model = modelName;
  if (modelName === '') return kind === 'chat' ? fail(400, 'model is required') : fail(404, "model '' not found");
  const parsedName = parseModelName(modelName);
  if (!parsedName) return fail(400, 'invalid model name');
  const model = state.store.find(modelName);
  if (!model) return fail(404, `model '${modelName}' not found`);
  const options = body.options as Record<string, unknown> | undefined;
  const numCtx = typeof options?.num_ctx === 'number' ? options.num_ctx : undefined;
  const runnerOption = (key: string) => (typeof options?.[key] === 'number' ? (options[key] as number) : undefined);
  const runner: RunnerOptions = { numCtx, numBatch: runnerOption('num_batch'), numGpu: runnerOption('num_gpu') };
  return {
    modelName,
    model,
    body,
    think: think.value,
    keepAliveMs: keepAlive ? keepAlive.value : state.defaultKeepAliveMs,
    unloadRequested: keepAlive?.value === 0,
    numCtx,
    runner,
  };
}

/** Capability checks, in Ollama's order; answers the 400 and returns false on failure. */
function checkCapabilities(ctx: StandinContext, kind: Kind, v: Validated): boolean {
  const caps = v.model.capabilities;
  const fullName = fullModelName(parseModelName(v.model.name)!);
  let error: string | undefined;
  if (!caps.includes('thinking') && thinkEnabled(v.think)) error = `${goQuote(v.modelName)} does not support thinking`;
  else if (!caps.includes('completion')) error = `${goQuote(v.modelName)} does not support ${kind}`;
  else if (kind === 'chat' && Array.isArray(v.body.tools) && v.body.tools.length > 0 && !caps.includes('tools')) {
    error = `${fullName} does not support tools`;
  } else if (kind === 'generate' && typeof v.body.suffix === 'string' && v.body.suffix !== '' && !caps.includes('insert')) {
    error = `${fullName} does not support insert`;
  }
  if (error) sendError(ctx.res, 400, error);
  return !error;
}

async function handleInference(ctx: StandinContext, kind: Kind): Promise<void> {
  const { res, state, record, signal } = ctx;
  const v = validate(ctx, kind);
  if (!v) return;
  const isEmpty =
    kind === 'chat'
      ? !(Array.isArray(v.body.messages) && v.body.messages.length > 0)
      : !(typeof v.body.prompt === 'string' && v.body.prompt !== '');

  if (isEmpty && v.unloadRequested) {
    state.gpu.unload(v.model);
    return sendJson(res, 200, doneOnly(kind, v.modelName, 'unload'));
  }
  if (!checkCapabilities(ctx, kind, v)) return;
  const optionError = checkOptions(v.body.options);
  if (optionError) return sendError(res, 500, optionError);
  if (isEmpty) {
    try {
      record.load = await state.gpu.load(v.model, signal, v.runner, v.keepAliveMs);
    } catch (err) {
      if (err instanceof QueueFullError) return sendError(res, 503, err.message);
      if (isAbortError(err)) return;
      throw err;
    }
    record.loadedAt = nowMs();
    return sendJson(res, 200, doneOnly(kind, v.modelName, 'load'));
  }

  // a simulated model's turn is its persona's reply to what it was sent (a retry is sent the same: the same reply)
  const simulated = state.sim.claim(v.modelName, kind, v.body);
  if (simulated) record.simBehaviour = simulated.behaviour;
  const claim = simulated ?? state.cursor.claim(v.modelName);
  // a 4xx: a loop asking for more turns than the script has is the scenario's problem, not a transient one to retry
  if (claim.kind === 'exhausted') return sendError(res, 400, claim.message);
  record.turnIndex = claim.index;
  const fault = 'fault' in claim ? claim.fault : undefined;
  if (fault) record.fault = fault.kind;
  // the turn is consumed only by a delivered reply; anything else leaves it due for the retry
  const notDelivered = () => (simulated ? undefined : state.cursor.giveBack(v.modelName, claim.position));
  if (fault?.kind === 'http') {
    notDelivered();
    const headers: Record<string, string> = {};
    if (fault.retryAfterSeconds !== undefined) headers['Retry-After'] = String(fault.retryAfterSeconds);
    return sendError(res, fault.status, fault.error ?? defaultHttpFaultError(fault.status, v.modelName), headers);
  }

  let lease: SlotLease;
  try {
    lease = await state.gpu.acquire(v.model, signal, v.runner, v.keepAliveMs);
    record.load = lease.load;
  } catch (err) {
    notDelivered();
    if (err instanceof QueueFullError) return sendError(res, 503, err.message);
    if (isAbortError(err)) return;
    throw err;
  }
  record.queued = lease.queued;
  record.loadedAt = lease.loadedAtMs;
  record.slotAcquiredAt = lease.acquiredAtMs;
  state.log.changed();
  try {
    const caps = v.model.capabilities;
    const emitThinking = caps.includes('thinking') && (v.think !== false || alwaysThinks(v.model));
    // the templated prompt against the loaded context: truncation, the prompt cache, the version's counts
    const prepared = prepareReply({ state, kind, body: v.body, model: v.model, lease, requestedNumCtx: v.numCtx });
    record.prompt = prepared.record;
    if (prepared.rejection) {
      notDelivered();
      return sendError(res, 400, prepared.rejection);
    }
    record.generation = await runGeneration({
      res,
      kind,
      stream: v.body.stream !== false,
      model: v.modelName,
      remote: remoteInfo(v.model),
      plan: planReply(claim.turn, { emitThinking, ...prepared.plan }),
      fault,
      tokensPerSecond: scaleRate(v.model.tokensPerSecond, state.timeScale),
      prefillMs: scaleMs(prepared.prefillMs, state.timeScale),
      receivedAtMs: record.receivedAt,
      loadedAtMs: lease.loadedAtMs,
      acquiredAtMs: lease.acquiredAtMs,
      signal,
      onLine: () => {
        record.chunks += 1;
        state.log.changed();
      },
      onDrop: () => {
        record.dropped = true;
      },
    });
    if (record.generation !== 'completed') notDelivered();
  } catch (err) {
    notDelivered();
    if (!isAbortError(err)) throw err;
    record.generation = 'cancelled';
  } finally {
    lease.release(v.keepAliveMs);
    record.slotReleasedAt = nowMs();
    state.log.changed();
  }
}
