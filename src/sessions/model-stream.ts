// The model's output as it streams — opencode's `text-delta` published to the UI, dexto's
// `llm:chunk` — handed from a session's provider calls to whoever watches live (the live feed).
// It is a side channel: nothing here is journaled (the final text is, whole, as before), nothing is
// kept, and with no listener a delta is dropped at the first call.
import { Injectable } from '@nestjs/common';
import type { InferencePurpose } from '../process/inference-step';

/** one streamed piece, as the provider's onDelta gives it */
export interface ModelDelta {
  content?: string;
  thinking?: string;
}

/** where a piece belongs: the iteration whose model call streams it, and what the call is for */
export interface StreamPlace {
  iteration: number;
  purpose: InferencePurpose;
}

export type ModelStreamListener = (sessionId: string, delta: ModelDelta, at: StreamPlace) => void;

@Injectable()
export class ModelStream {
  private listener?: ModelStreamListener;

  /** One listener at a time (the live feed); returns how to stop listening. */
  listen(listener: ModelStreamListener): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** Called for every streamed piece of every session: synchronous, never waits, never throws into the stream. */
  publish(sessionId: string, delta: ModelDelta, at: StreamPlace): void {
    const listener = this.listener;
    if (!listener) return;
    try {
      listener(sessionId, delta, at);
    } catch {
      // a watcher's failure must never break the model call it watches
    }
  }
}
