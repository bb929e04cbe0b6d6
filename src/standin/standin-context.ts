// What a route handler gets: the request/response pair with its log record and cancellation
// signal, and the server state shared by all handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { GpuSimulator } from './standin-gpu';
import type { ModelStore } from './standin-model-store';
import type { StandinRequestRecord, RequestLog } from './standin-request-log';
import type { TurnCursor } from './standin-turn-cursor';
import type { SimModels } from './standin-sim';

export interface StandinState {
  store: ModelStore;
  gpu: GpuSimulator;
  cursor: TurnCursor;
  /** simulated models: their turns come from a persona, not the cursor */
  sim: SimModels;
  log: RequestLog;
  version: string;
  /** keep_alive when a request sends none, ms (null = forever) */
  defaultKeepAliveMs: number | null;
  pullStepMs: number;
  pullProgressSteps: number;
  /** multiplies simulated durations (load time, keep_alive, decode pacing); 1 = real time */
  timeScale: number;
}

export interface StandinContext {
  req: IncomingMessage;
  res: ServerResponse;
  record: StandinRequestRecord;
  /** the request body as text ('' when none) */
  rawBody: string;
  /** aborts when the client goes away before the response is complete, or the server stops */
  signal: AbortSignal;
  state: StandinState;
}

export type RouteHandler = (ctx: StandinContext) => Promise<void> | void;
