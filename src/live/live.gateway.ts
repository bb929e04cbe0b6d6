// The WebSocket side of Loupe (socket.io, mcp-agent-technical-spec.md §1 and §5): the admin token at
// connect (`auth: { token }` or an Authorization header), `system:ready` with the provider and the
// model chosen in the connection query, a session's journal events live and resumable, approvals,
// tool outputs and errors, and messages into running sessions. Handlers only check and delegate;
// each answers through its acknowledgement ({ ok, … } or { ok: false, status, message, errors }).
import { Inject, Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { ADMIN_TOKEN } from '../admin/admin-auth.guard';
import { bearerFrom, tokenMatches } from '../admin/admin-token';
import { ApprovalService, approvalExpiredMessage } from '../approval/approval.service';
import { SessionExpiredError } from '../common/request-errors';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { ModelsService } from '../provider/models.service';
import { SessionLauncher } from '../sessions/session-launcher.service';
import { SessionsService } from '../sessions/sessions.service';
import { answerClientMessage, type Answer, type ClientMessage, type ClientPayload } from './client-messages';
import { LiveFeed } from './live-feed.service';
import { approvalRequired } from './live-wire';
import type { KeyedSubscription } from './keyed-subscription';
import type { SessionSubscription } from './session-subscription';
import { broadcast, flowSocketOf, type LiveServer, type LiveSocket } from './socket-flow';

/** unfinished sessions one connection may follow at once (a finished one's slot is freed when needed) */
const MAX_SUBSCRIPTIONS = 100;

interface ConnectionState {
  model: string | null;
  sessions: Map<string, SessionSubscription>;
  list?: KeyedSubscription;
}

@WebSocketGateway({ serveClient: true })
export class LiveGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger('Live');

  constructor(
    @Inject(ADMIN_TOKEN) private readonly token: string,
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly feed: LiveFeed,
    private readonly approvals: ApprovalService,
    private readonly sessions: SessionsService,
    private readonly launcher: SessionLauncher,
    private readonly models: ModelsService,
  ) {}

  afterInit(server: LiveServer): void {
    // one broadcast per session and tick reaches every subscriber in step (session-room.ts)
    this.feed.attach({ emit: (room, packet) => broadcast(server, room, packet) });
    server.use((socket, next) => {
      const given = (socket.handshake.auth as { token?: unknown })?.token;
      const presented = typeof given === 'string' ? given : bearerFrom(socket.handshake.headers.authorization);
      if (tokenMatches(this.token, presented)) return next();
      next(new Error('unauthorized: connect with auth: { token: <LOUPE_ADMIN_TOKEN> }'));
    });
  }

  handleConnection(socket: LiveSocket): void {
    const model =
      typeof socket.handshake.query.model === 'string' && socket.handshake.query.model.length <= 300 ? socket.handshake.query.model : null;
    const state: ConnectionState = { model, sessions: new Map() };
    socket.data = state;
    socket.emit('system:ready', { provider: 'ollama', model, host: this.models.ollamaHost });
  }

  handleDisconnect(socket: LiveSocket): void {
    const state = socket.data as ConnectionState | undefined;
    if (!state) return;
    for (const sub of state.sessions.values()) this.feed.unsubscribe(sub);
    if (state.list) this.feed.unsubscribeList(state.list);
  }

  @SubscribeMessage('session:subscribe')
  subscribe(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('session:subscribe', body, async ({ sessionId, afterSeq, afterMessageIdx, batch }) => {
      const state = socket.data as ConnectionState;
      const previous = state.sessions.get(sessionId);
      if (previous) this.feed.unsubscribe(previous);
      else if (state.sessions.size >= MAX_SUBSCRIPTIONS && !this.releaseSpent(state))
        return { ok: false, status: 409, message: `at most ${MAX_SUBSCRIPTIONS} unfinished sessions per connection` };
      const view = await this.sessions.get(sessionId); // 404 for an unknown session
      state.sessions.set(sessionId, this.feed.subscribe(flowSocketOf(socket), sessionId, afterSeq ?? -1, afterMessageIdx, batch));
      for (const p of view.pendingApprovals) socket.emit('tool:approval_required', approvalRequired(p));
      return { ok: true, sessionId, status: view.session.status, live: view.live };
    });
  }

  @SubscribeMessage('session:unsubscribe')
  unsubscribe(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('session:unsubscribe', body, async ({ sessionId }) => {
      const state = socket.data as ConnectionState;
      const sub = state.sessions.get(sessionId);
      if (sub) this.feed.unsubscribe(sub);
      state.sessions.delete(sessionId);
      return { ok: true, sessionId };
    });
  }

  @SubscribeMessage('sessions:subscribe')
  subscribeList(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('sessions:subscribe', body, async () => {
      const state = socket.data as ConnectionState;
      state.list ??= this.feed.subscribeList(flowSocketOf(socket));
      return { ok: true };
    });
  }

  @SubscribeMessage('sessions:unsubscribe')
  unsubscribeList(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('sessions:unsubscribe', body, async () => {
      const state = socket.data as ConnectionState;
      if (state.list) this.feed.unsubscribeList(state.list);
      state.list = undefined;
      return { ok: true };
    });
  }

  /** §5: an approval for a call nobody waits on answers `error` (and is recorded as approval_unknown). */
  @SubscribeMessage('tool:approval')
  approve(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('tool:approval', body, async ({ callId, approved, reason }) => {
      const result = this.approvals.decide(callId, approved, 'person', reason);
      if (result.ok) return { ok: true, callId, approved, sessionId: result.request.sessionId };
      if (result.error === 'session_expired') {
        // the one error mapping answers it (410), as over HTTP
        const expired = new SessionExpiredError(result.sessionId, approvalExpiredMessage(callId, result.sessionId));
        socket.emit('error', { code: 'session_expired', callId, sessionId: result.sessionId, message: expired.message });
        throw expired;
      }
      const message = `no tool call ${callId} is waiting for a decision`;
      socket.emit('error', { code: 'unknown_call', callId, message });
      return { ok: false, status: 404, code: 'unknown_call', message };
    });
  }

  /** Into a running session (queued, position answered); without sessionId, a new session with the connection's model. */
  @SubscribeMessage('message')
  message(@ConnectedSocket() socket: LiveSocket, @MessageBody() body: unknown): Promise<Answer> {
    return this.handle('message', body, async ({ sessionId, text }) => {
      if (sessionId) return { ok: true, sessionId, ...(await this.sessions.sendMessage(sessionId, text)) };
      const state = socket.data as ConnectionState;
      const started = await this.launcher.start({ prompt: text, model: state.model ?? undefined });
      state.sessions.set(started.sessionId, this.feed.subscribe(flowSocketOf(socket), started.sessionId, -1));
      return { ok: true, ...started };
    });
  }

  /** Frees the slots of finished sessions whose events are all delivered (nothing more can come); whether any was freed. */
  private releaseSpent(state: ConnectionState): boolean {
    let released = false;
    for (const [id, sub] of state.sessions) {
      if (!sub.spent) continue;
      this.feed.unsubscribe(sub);
      state.sessions.delete(id);
      released = true;
    }
    return released;
  }

  private handle<K extends ClientMessage>(kind: K, body: unknown, act: (payload: ClientPayload<K>) => Promise<Answer>): Promise<Answer> {
    return answerClientMessage(kind, body, act, {
      maxBodyBytes: this.config.api.maxBodyBytes,
      logError: (m) => this.logger.error(m),
    });
  }
}
