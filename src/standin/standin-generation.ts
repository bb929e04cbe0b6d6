// Writes one scripted reply to the wire: NDJSON deltas and a final done chunk (or one aggregated
// object for stream:false), paced at the model's tokens per second, with the turn's in-stream
// fault applied at its chunk boundary. Stops as soon as the client goes away.
import type { ServerResponse } from 'node:http';

import type { StandinFault } from './standin-script';
import type { ReplyPlan } from './standin-reply-plan';
import {
  aggregatePieces,
  chatChunk,
  generateChunk,
  type ChatMetrics,
  type ChunkInput,
  type RemoteInfo,
  type ReplyPiece,
} from './standin-chat-wire';
import { RUNNER_ERROR, defaultMalformedLine, faultChunkIndex, isStreamFault } from './standin-fault';
import { formatGoTime, nowMs, nowNs } from './standin-go-json';
import { JSON_TYPE, NdjsonWriter, sendError, sendJson, sendText } from './standin-http';
import { sleep } from './standin-async';

export interface GenerationInput {
  res: ServerResponse;
  kind: 'chat' | 'generate';
  stream: boolean;
  /** model as sent by the client (echoed in every chunk) */
  model: string;
  remote?: RemoteInfo;
  plan: ReplyPlan;
  /** a non-HTTP fault to apply (HTTP faults are answered before generation) */
  fault?: StandinFault;
  tokensPerSecond?: number;
  /** prompt processing time before the first token (the uncached prompt at the model's prefill speed) */
  prefillMs?: number;
  receivedAtMs: number;
  loadedAtMs: number;
  acquiredAtMs: number;
  signal: AbortSignal;
  /** called when a line is written (for the request log) */
  onLine?: () => void;
  /** called right before the stand-in drops the connection itself */
  onDrop?: () => void;
}

/** completed: the reply reached the client (a malformed line inside a stream does not stop that). */
export type GenerationOutcome = 'completed' | 'dropped' | 'error_line' | 'malformed_body';

const msToNs = (ms: number): number => Math.max(1, Math.round(ms * 1e6));

function tokenDelayMs(tokens: number, tokensPerSecond?: number): number {
  return tokensPerSecond && tokensPerSecond > 0 ? (tokens * 1000) / tokensPerSecond : 0;
}

export async function runGeneration(input: GenerationInput): Promise<GenerationOutcome> {
  const { fault, signal } = input;
  if (fault?.kind === 'delay_first_byte') await sleep(fault.ms, signal);
  // prompt evaluation comes before any token; prompt_eval_duration (slot granted → first token) includes it
  if (input.prefillMs && input.prefillMs > 0) await sleep(input.prefillMs, signal);
  return input.stream ? streamReply(input) : replyOnce(input);
}

function chunk(input: GenerationInput, piece: ReplyPiece, done: boolean, extra: Partial<ChunkInput> = {}): Record<string, unknown> {
  const build = input.kind === 'chat' ? chatChunk : generateChunk;
  return build({ model: input.model, createdAt: formatGoTime(nowNs()), piece, done, remote: input.remote, ...extra });
}

function metrics(input: GenerationInput, firstTokenAtMs: number): ChatMetrics {
  const end = nowMs();
  return {
    totalDurationNs: msToNs(end - input.receivedAtMs),
    loadDurationNs: msToNs(input.loadedAtMs - input.receivedAtMs),
    promptEvalCount: input.plan.promptEvalCount,
    promptEvalCachedCount: input.plan.promptEvalCachedCount,
    promptEvalDurationNs: msToNs(firstTokenAtMs - input.acquiredAtMs),
    evalCount: input.plan.evalCount,
    evalDurationNs: msToNs(end - firstTokenAtMs),
  };
}

/** Drops the connection mid-response, after the lines already written reach the client. */
async function drop(input: GenerationInput): Promise<GenerationOutcome> {
  input.onDrop?.();
  const socket = input.res.socket;
  if (socket && input.res.headersSent && !socket.destroyed) {
    // an empty write calls back once everything queued before it is flushed
    await new Promise<void>((resolve) => socket.write('', () => resolve()));
  }
  socket?.destroy();
  input.res.destroy();
  return 'dropped';
}

async function streamReply(input: GenerationInput): Promise<GenerationOutcome> {
  const { plan, signal } = input;
  const writer = new NdjsonWriter(input.res, input.onLine);
  const chunkCount = plan.pieces.length + 1;
  const fault = isStreamFault(input.fault) ? input.fault : undefined;
  const faultAt = fault ? faultChunkIndex(fault, chunkCount) : -1;
  let firstTokenAtMs = nowMs();
  // pieces are due on a clock, not after one sleep each: every timer fires a millisecond or more
  // late, and those delays would add up to a reply slower than the model's tokens per second
  let dueAtMs = nowMs();
  for (let i = 0; i < chunkCount; i++) {
    if (i === faultAt && fault) {
      switch (fault.kind) {
        case 'stall':
          await sleep(fault.ms, signal);
          dueAtMs = nowMs(); // what follows the stall is paced from its end
          break;
        case 'disconnect':
          return drop(input);
        case 'malformed_line':
          await writer.writeLine(fault.line ?? defaultMalformedLine(input.model), signal);
          break;
        case 'error_line':
          // Before any line the status is still free: Ollama answers with a real 500.
          if (!writer.started) sendError(input.res, 500, fault.error);
          else {
            await writer.writeObject({ error: fault.error }, signal);
            writer.end();
          }
          return 'error_line';
      }
    }
    if (i < plan.pieces.length) {
      dueAtMs += tokenDelayMs(plan.pieceTokens[i], input.tokensPerSecond);
      await sleep(dueAtMs - nowMs(), signal);
      if (i === 0) firstTokenAtMs = nowMs();
      await writer.writeObject(chunk(input, plan.pieces[i], false), signal);
    } else {
      const final = chunk(input, {}, true, { doneReason: plan.doneReason, metrics: metrics(input, firstTokenAtMs) });
      await writer.writeObject(final, signal);
    }
    signal.throwIfAborted();
  }
  writer.end();
  return 'completed';
}

async function replyOnce(input: GenerationInput): Promise<GenerationOutcome> {
  const { plan, signal } = input;
  const fault = isStreamFault(input.fault) ? input.fault : undefined;
  const firstTokenAtMs = nowMs();
  const totalTokens = plan.pieceTokens.reduce((a, b) => a + b, 0);
  await sleep(tokenDelayMs(totalTokens, input.tokensPerSecond), signal);
  if (fault) {
    switch (fault.kind) {
      case 'stall':
        await sleep(fault.ms, signal);
        break;
      case 'disconnect':
        return drop(input);
      case 'malformed_line':
        // the whole body is the bad line: no reply was delivered
        sendText(input.res, 200, fault.line ?? defaultMalformedLine(input.model), JSON_TYPE);
        return 'malformed_body';
      case 'error_line':
        // Non-streaming, Ollama turns a runner failure into an HTTP 500 with the message.
        sendError(input.res, 500, fault.error || RUNNER_ERROR);
        return 'error_line';
    }
  }
  const whole = aggregatePieces(plan.pieces);
  const body = chunk(input, whole, true, { doneReason: plan.doneReason, metrics: metrics(input, firstTokenAtMs) });
  sendJson(input.res, 200, body);
  return 'completed';
}
