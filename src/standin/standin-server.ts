// The Ollama stand-in: a node:http server speaking Ollama's native API, replying from a script,
// injecting faults and simulating GPU capacity. Plain node:http (no framework) so headers and
// stream timing are exactly under our control.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { StandinModel, StandinOptions, StandinPreload, StandinScript } from './standin-script';
import type { StandinContext, StandinState } from './standin-context';
import { GpuSimulator, type LoadRecord } from './standin-gpu';
import { StandinHttpError } from './standin-fault';
import { ModelStore } from './standin-model-store';
import { RequestLog, type StandinRequestRecord } from './standin-request-log';
import { TurnCursor } from './standin-turn-cursor';
import { Router } from './standin-router';
import { parseKeepAlive } from './standin-request-fields';
import { nowMs } from './standin-go-json';
import { GIN_PLAIN_TYPE, readBody, sendError, sendJson, sendText } from './standin-http';
import { handleDelete, handlePs, handleRoot, handleShow, handleTags, handleVersion } from './standin-model-handlers';
import { handleChat, handleGenerate } from './standin-inference-handler';
import { handlePull } from './standin-pull-handler';
import { isAbortError } from './standin-async';
import { serveRecorded, type StandinReplaySource } from './standin-replay';
import { SimModels, type StandinSimModel } from './standin-sim';
import { DEFAULT_STANDIN_CATALOG } from './standin-catalog';

export const DEFAULT_STANDIN_VERSION = '0.17.5';
export const DEFAULT_MAX_QUEUE = 512;

export interface StandinAddress {
  url: string;
  port: number;
  host: string;
}

function buildRouter(): Router {
  return new Router()
    .add('GET', '/', handleRoot)
    .add('HEAD', '/', handleRoot)
    .add('GET', '/api/version', handleVersion)
    .add('HEAD', '/api/version', handleVersion)
    .add('GET', '/api/tags', handleTags)
    .add('HEAD', '/api/tags', handleTags)
    .add('POST', '/api/show', handleShow)
    .add('GET', '/api/ps', handlePs)
    .add('POST', '/api/chat', handleChat)
    .add('POST', '/api/generate', handleGenerate)
    .add('POST', '/api/pull', handlePull)
    .add('DELETE', '/api/delete', handleDelete);
}

function parseLoggedBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** why a request's work is stopped once its connection closes (an AbortError, as an abort makes) */
const REQUEST_CLOSED = new DOMException('the request is over', 'AbortError');

export class StandinServer {
  private readonly state: StandinState;
  private readonly router = buildRouter();
  private readonly inflight = new Set<AbortController>();
  private server?: Server;
  private address?: StandinAddress;
  /** a recording served instead of the script (see standin-replay.ts) */
  private readonly replay?: StandinReplaySource;
  private readonly preloads: Array<{ model: StandinModel; preload: StandinPreload; keepAliveMs: number | null }>;

  /**
   * `sim`: simulated models (`sim:<persona>`) by name, each answering from its persona's policy over
   * what it is sent instead of the script (standin-sim.ts); listed in the catalog before `catalog`.
   */
  constructor(options: StandinOptions & { replay?: StandinReplaySource; sim?: Record<string, StandinSimModel> } = {}) {
    this.replay = options.replay;
    const keepAlive = parseKeepAlive(options.defaultKeepAlive ?? '5m');
    if (keepAlive && !keepAlive.ok) throw new Error(`stand-in defaultKeepAlive: ${keepAlive.error}`);
    const defaultKeepAliveMs = keepAlive ? keepAlive.value : 5 * 60_000;
    const timeScale = options.timeScale ?? 1;
    if (!(Number.isFinite(timeScale) && timeScale >= 0)) throw new Error(`stand-in timeScale: expected a number ≥ 0, got ${timeScale}`);
    const log = new RequestLog(options.requestLogLimit);
    const sim = new SimModels(options.sim);
    const simCatalog = sim.catalog();
    const store = new ModelStore(simCatalog.length ? [...simCatalog, ...(options.catalog ?? DEFAULT_STANDIN_CATALOG)] : options.catalog);
    this.state = {
      store,
      gpu: new GpuSimulator({
        maxQueue: options.maxQueue ?? DEFAULT_MAX_QUEUE,
        defaultKeepAliveMs,
        defaultContextLength: options.defaultContextLength,
        maxLoadedModels: options.maxLoadedModels,
        gpuVramBytes: options.gpuVramBytes,
        timeScale,
        cloud: options.cloud,
        numParallel: options.numParallel,
        onChange: () => log.changed(),
      }),
      cursor: new TurnCursor(options.script ?? { turns: {} }),
      sim,
      log,
      version: options.version ?? DEFAULT_STANDIN_VERSION,
      defaultKeepAliveMs,
      pullStepMs: options.pull?.stepMs ?? 60,
      pullProgressSteps: options.pull?.progressSteps ?? 4,
      timeScale,
    };
    this.preloads = (options.loaded ?? []).map((preload) => {
      const model = store.find(preload.model);
      if (!model) throw new Error(`stand-in loaded: model '${preload.model}' is not in the catalog`);
      const parsed = parseKeepAlive(preload.keepAlive);
      if (parsed && !parsed.ok) throw new Error(`stand-in loaded: ${preload.model}: keepAlive: ${parsed.error}`);
      return { model, preload, keepAliveMs: parsed ? parsed.value : defaultKeepAliveMs };
    });
    this.warmUp();
  }

  /** The `loaded:` models, warm as if a request had just loaded them. */
  private warmUp(): void {
    for (const { model, preload, keepAliveMs } of this.preloads)
      this.state.gpu.preload(model, { numCtx: preload.numCtx, numBatch: preload.numBatch, numGpu: preload.numGpu }, keepAliveMs);
  }

  /** Every model load and reload so far, in order, with its cause (options_changed, keep_alive_expired, evicted…). */
  get loads(): readonly LoadRecord[] {
    return this.state.gpu.loads;
  }

  /** Models loaded now, as /api/ps lists them (expired ones are gone). */
  loadedModelNames(): string[] {
    return this.state.gpu.loadedModels().map((l) => l.model.name);
  }

  /** Requests queued behind the scheduler for a load, reload or eviction (what maxQueue bounds; slot waiters are not counted). */
  get pendingLoads(): number {
    return this.state.gpu.pendingLoads;
  }

  /**
   * Every request received (the newest `requestLogLimit` of them when that is set), in arrival
   * order; records update live as requests progress.
   */
  get requests(): readonly StandinRequestRecord[] {
    return this.state.log.records;
  }

  /** How many requests have arrived, those the log no longer keeps included. */
  get requestsReceived(): number {
    return this.state.log.received;
  }

  get catalog(): readonly StandinModel[] {
    return this.state.store.catalog;
  }

  /** Base URL once started, e.g. http://127.0.0.1:41234 */
  get url(): string | undefined {
    return this.address?.url;
  }

  async start(port = 0, host = '127.0.0.1'): Promise<StandinAddress> {
    if (this.server) throw new Error('stand-in server already started');
    const server = createServer((req, res) => void this.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const actual = (server.address() as AddressInfo).port;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    this.address = { url: `http://${urlHost}:${actual}`, port: actual, host };
    return this.address;
  }

  /** Replaces the script and restarts every model's turn cursor. */
  setScript(script: StandinScript): void {
    this.state.cursor.setScript(script);
  }

  /** Back to the constructed state: cursors, log, loaded models, installed models. In-flight requests are ended. */
  reset(): void {
    this.abortInflight();
    this.state.cursor.reset();
    this.state.sim.reset();
    this.state.gpu.reset();
    this.state.store.reset();
    this.state.log.clear();
    this.warmUp();
  }

  /** Requests waiting inside the server for a model load or a parallel slot. */
  get waiting(): number {
    return this.state.gpu.waiting;
  }

  /** Turns served to `model` so far (faulted requests not counted). */
  served(model: string): number {
    return this.state.cursor.served(model);
  }

  /** Resolves once `predicate` holds over the request log (rejects after timeoutMs). */
  waitForRequests(predicate: (records: readonly StandinRequestRecord[]) => boolean, timeoutMs = 5000): Promise<void> {
    return this.state.log.waitFor(predicate, timeoutMs);
  }

  /** Resolves when no request is in flight. */
  settled(timeoutMs = 5000): Promise<void> {
    return this.state.log.settled(timeoutMs);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.abortInflight();
    this.state.gpu.reset();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Answers from the recording; false leaves the request to the stand-in's own handlers. */
  private async answerFromRecording(
    req: IncomingMessage,
    res: ServerResponse,
    record: StandinRequestRecord,
    rawBody: string,
    method: string,
    path: string,
    signal: AbortSignal,
  ): Promise<boolean> {
    const answer = this.replay!.answer({ method, path, body: record.body, rawBody });
    const body = record.body as { model?: unknown } | undefined;
    if (typeof body?.model === 'string') record.model = body.model;
    switch (answer.kind) {
      case 'own':
        return false;
      case 'refuse':
        sendError(res, answer.status, answer.message);
        return true;
      case 'delegate':
        await answer.handle(req, res, rawBody, signal);
        return true;
      case 'recorded':
        await serveRecorded(res, answer.response, this.replay!.pace, signal);
        return true;
    }
  }

  /** Ends in-flight requests on our side (not logged as client cancellations). */
  private abortInflight(): void {
    const controllers = [...this.inflight];
    this.inflight.clear();
    for (const controller of controllers) controller.abort();
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0];
    const log = this.state.log;
    const record = log.start(method, path, nowMs());
    const controller = new AbortController();
    this.inflight.add(controller);

    // Status and first byte are logged when the headers actually go out.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (...args: unknown[]): ServerResponse => {
      record.status = args[0] as number;
      record.firstByteAt = nowMs();
      log.changed();
      return writeHead(...args);
    };
    const closed = new Promise<void>((resolve) => {
      res.on('close', () => {
        if (!res.writableFinished && !record.dropped && this.inflight.has(controller)) {
          record.cancelled = true; // the client went away before the response completed
          record.cancelledAt = nowMs();
        }
        this.inflight.delete(controller);
        // one shared reason: a DOMException made per request (with its stack) cost more than the request's routing
        controller.abort(REQUEST_CLOSED);
        log.changed();
        resolve();
      });
    });

    try {
      const rawBody = await readBody(req);
      record.body = parseLoggedBody(rawBody);
      if (this.replay && (await this.answerFromRecording(req, res, record, rawBody, method, path, controller.signal))) return;
      const match = this.router.match(method, path);
      if (match.kind !== 'handler') {
        const headers: Record<string, string> = {};
        if (match.kind === 'method_not_allowed') headers.Allow = match.allow.join(', ');
        return sendText(res, match.status, match.body, GIN_PLAIN_TYPE, headers);
      }
      const ctx: StandinContext = { req, res, record, rawBody, signal: controller.signal, state: this.state };
      await match.handler(ctx);
    } catch (err) {
      if (err instanceof StandinHttpError) {
        if (!res.headersSent) sendJson(res, err.status, err.body);
      } else if (!isAbortError(err)) {
        if (!res.headersSent) sendError(res, 500, err instanceof Error ? err.message : String(err));
        else res.destroy();
      }
    } finally {
      // A handler that returned without finishing its response was aborted: close the connection.
      if (!res.writableEnded && !res.destroyed) res.destroy();
      await closed;
      log.finish(record, nowMs()); // over once both the handler and the connection are done
    }
  }
}
