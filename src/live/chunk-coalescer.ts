// Streamed model output for one session, joined into llm:chunk messages: Ollama sends a chunk per
// token, far more than a socket or a browser needs, so what streams during a tick goes out as one
// message. Pure state, no timers: the live feed decides when a tick ends.
import type { ModelDelta, StreamPlace } from '../sessions/model-stream';
import type { LlmChunk } from './live-wire';

/** a session's streamed pieces wait at most this long before they go out as one llm:chunk */
export const CHUNK_TICK_MS = 50;

export class ChunkCoalescer {
  private seq = 0;
  private place?: StreamPlace;
  private content = '';
  private thinking = '';
  private deltas = 0;

  constructor(readonly sessionId: string) {}

  /** pieces are waiting for the end of the tick */
  get pending(): boolean {
    return this.deltas > 0;
  }

  /** Adds a piece; when it belongs to another model call than the waiting ones, returns their chunk (a chunk never spans two calls). */
  add(delta: ModelDelta, at: StreamPlace): LlmChunk | undefined {
    const closed = this.place && (this.place.iteration !== at.iteration || this.place.purpose !== at.purpose) ? this.take() : undefined;
    this.place = at;
    if (delta.content) this.content += delta.content;
    if (delta.thinking) this.thinking += delta.thinking;
    this.deltas++;
    return closed;
  }

  /** What waits, as one chunk (undefined when nothing does). */
  take(): LlmChunk | undefined {
    if (!this.deltas || !this.place) return undefined;
    const chunk: LlmChunk = {
      sessionId: this.sessionId,
      iteration: this.place.iteration,
      purpose: this.place.purpose,
      seq: this.seq++,
      deltas: this.deltas,
      content: this.content,
      thinking: this.thinking,
    };
    this.content = '';
    this.thinking = '';
    this.deltas = 0;
    return chunk;
  }
}
