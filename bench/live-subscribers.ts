// The bench's WebSocket subscribers, in their own process (as browsers would be): socket.io clients
// spread over one or more sessions. Each is "ready" once it has caught up to its session's pending
// approval; after the parent says "go", every event received is timed against the time the journal
// recorded it (createdAt, the same machine's clock). With `batch`, clients subscribe as the viewer
// does (one session:batch per tick). Results go back over IPC.
import type { Socket as NetSocket } from 'node:net';
import { io, type Socket } from 'socket.io-client';

interface Start {
  url: string;
  token: string;
  /** client i follows sessions[i % sessions.length] */
  sessions: string[];
  clients: number;
  stalled?: boolean;
  batch?: boolean;
}

interface Incoming {
  sessionId: string;
  events: Array<{ seq: number; type: string; createdAt: string }>;
}

const now = () => performance.timeOrigin + performance.now();

function run({ url, token, sessions, clients, stalled, batch }: Start): void {
  const latencies: number[] = [];
  let measuring = false;
  let ready = 0;
  let finished = 0;
  let events = 0;
  const sockets: Socket[] = [];
  for (let i = 0; i < clients; i++) {
    const sessionId = sessions[i % sessions.length];
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    let caughtUp = false;
    let lastSeq = -1;
    const onEvents = (body: Incoming) => {
      const at = now();
      for (const e of body.events) {
        if (e.seq !== lastSeq + 1) fail(`client ${i}: seq ${e.seq} after ${lastSeq}`);
        lastSeq = e.seq;
        if (measuring) {
          latencies.push(at - Date.parse(e.createdAt));
          events++;
        }
        if (!caughtUp && e.type === 'approval_requested') {
          caughtUp = true;
          if (++ready === clients) process.send!({ kind: 'ready' });
        }
        if (e.type === 'session_finished' && ++finished === clients) {
          for (const s of sockets) s.close();
          // the parent kills this process once it has read the results: exiting here, even after send's
          // callback, can reach the parent as 'exit' before its 'message' (a large one), and lose them
          process.send!({ kind: 'done', latencies, events });
        }
      }
    };
    socket.on('connect', () => socket.emit('session:subscribe', batch ? { sessionId, batch } : { sessionId }, () => undefined));
    socket.on('connect_error', (e: Error) => fail(`client ${i}: ${e.message}`));
    socket.on('session:events', onEvents);
    socket.on('session:batch', (body: { items: Array<[string, unknown]> }) => {
      for (const [event, item] of body.items) if (event === 'session:events') onEvents(item as Incoming);
    });
  }
  process.on('message', (m: { kind: string }) => {
    if (m.kind !== 'go') return;
    measuring = true;
    // stop reading: socket.io-client → engine.io-client's websocket transport → ws → the net.Socket
    if (stalled)
      for (const s of sockets)
        (s.io as unknown as { engine: { transport: { ws: { _socket: NetSocket } } } }).engine.transport.ws._socket.pause();
  });
}

function fail(message: string): never {
  process.send!({ kind: 'error', message });
  process.exit(1);
}

process.once('message', (m: Start) => run(m));
