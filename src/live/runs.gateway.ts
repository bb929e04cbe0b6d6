// Eval runs over the WebSocket, beside the session gateway on the same connection (its token check
// covers these too): a run's trials and progress as they happen, and the runs list's rows. A
// subscription is answered once everything journaled before it is readable, so a page that
// subscribes, then reads the run, loses no trial between the two.
import { Inject, Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, type OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { RunViews } from '../eval/run-views';
import { answerClientMessage, type Answer, type ClientMessage, type ClientPayload } from './client-messages';
import type { KeyedSubscription } from './keyed-subscription';
import { RunFeed } from './run-feed.service';
import { flowSocketOf, type LiveSocket } from './socket-flow';

/** runs one connection may follow at once */
const MAX_RUN_SUBSCRIPTIONS = 20;

interface RunConnection {
  runs: Map<string, KeyedSubscription>;
  list?: KeyedSubscription;
}

@WebSocketGateway({ serveClient: true })
export class RunsGateway implements OnGatewayDisconnect {
  private readonly logger = new Logger('Live');
  private readonly connections = new WeakMap<LiveSocket, RunConnection>();

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly feed: RunFeed,
    private readonly views: RunViews,
  ) {}

  handleDisconnect(socket: LiveSocket): void {
    const state = this.connections.get(socket);
    if (!state) return;
    for (const [runId, sub] of state.runs) this.feed.unsubscribe(runId, sub);
    if (state.list) this.feed.unsubscribeList(state.list);
    this.connections.delete(socket);
  }

  @SubscribeMessage('run:subscribe')
  subscribe(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('run:subscribe', body, async ({ runId }) => {
      const state = this.stateOf(socket);
      const previous = state.runs.get(runId);
      if (previous) this.feed.unsubscribe(runId, previous);
      else if (state.runs.size >= MAX_RUN_SUBSCRIPTIONS)
        return { ok: false, status: 409, message: `at most ${MAX_RUN_SUBSCRIPTIONS} runs per connection` };
      const sub = this.feed.subscribe(flowSocketOf(socket), runId);
      state.runs.set(runId, sub);
      try {
        await this.feed.caughtUp();
        const run = await this.views.summary(runId); // 404 for an unknown run
        return { ok: true, runId, run };
      } catch (e) {
        this.feed.unsubscribe(runId, sub);
        state.runs.delete(runId);
        throw e;
      }
    });
  }

  @SubscribeMessage('run:unsubscribe')
  unsubscribe(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('run:unsubscribe', body, async ({ runId }) => {
      const state = this.stateOf(socket);
      const sub = state.runs.get(runId);
      if (sub) this.feed.unsubscribe(runId, sub);
      state.runs.delete(runId);
      return { ok: true, runId };
    });
  }

  @SubscribeMessage('runs:subscribe')
  subscribeList(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('runs:subscribe', body, async () => {
      const state = this.stateOf(socket);
      state.list ??= this.feed.subscribeList(flowSocketOf(socket));
      await this.feed.caughtUp();
      return { ok: true };
    });
  }

  @SubscribeMessage('runs:unsubscribe')
  unsubscribeList(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('runs:unsubscribe', body, async () => {
      const state = this.stateOf(socket);
      if (state.list) this.feed.unsubscribeList(state.list);
      state.list = undefined;
      return { ok: true };
    });
  }

  private stateOf(socket: LiveSocket): RunConnection {
    let state = this.connections.get(socket);
    if (!state) this.connections.set(socket, (state = { runs: new Map() }));
    return state;
  }

  private handle<K extends ClientMessage>(kind: K, body: unknown, act: (payload: ClientPayload<K>) => Promise<Answer>): Promise<Answer> {
    return answerClientMessage(kind, body, act, {
      maxBodyBytes: this.config.api.maxBodyBytes,
      logError: (m) => this.logger.error(m),
    });
  }
}
