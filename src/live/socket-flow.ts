// Backpressure on one socket.io connection: engine.io queues packets in `writeBuffer` while its
// transport cannot write (a reader that does not read fills the TCP window, then the WebSocket's
// send callbacks stop coming). A feed emits only while that buffer is short, so what a slow reader
// has not taken stays in the feed's own bounded queue — never in unbounded socket buffers.
import type { DefaultEventsMap, Server, Socket } from 'socket.io';
import type { Packet, ServerEvent, ServerEvents, ServerListeners } from './live-wire';

/** the server's side of a connection, its emits typed by the socket contract (ServerEvents) */
export type LiveSocket = Socket<DefaultEventsMap, ServerListeners>;
export type LiveServer = Server<DefaultEventsMap, ServerListeners>;

/** The parts of a socket.io Socket the live feed uses; emits are typed by the socket contract (ServerEvents). */
export interface FlowSocket {
  readonly connected: boolean;
  emit<E extends ServerEvent>(event: E, body: ServerEvents[E]): boolean;
  /** rooms: a subscriber in step with its session's broadcasts receives them through one (encoded once for all) */
  join(room: string): void;
  leave(room: string): void;
  readonly conn: {
    readonly writeBuffer: readonly unknown[];
    on(event: 'drain', listener: () => void): unknown;
    off(event: 'drain', listener: () => void): unknown;
  };
}

/** One typed emit of a packet (the event and body of one ServerEvents entry). */
export function send<E extends ServerEvent>(socket: Pick<FlowSocket, 'emit'>, [event, body]: Packet<E>): boolean {
  return socket.emit(event, body);
}

/** packets waiting in engine.io's buffer beyond which a feed stops emitting */
export const HIGH_WATER_PACKETS = 8;
const RECHECK_MS = 50;

export function congested(socket: Pick<FlowSocket, 'conn'>): boolean {
  return socket.conn.writeBuffer.length >= HIGH_WATER_PACKETS;
}

/** Resolves once the socket can take more (or has disconnected: the caller checks). */
export function writable(socket: FlowSocket): Promise<void> {
  if (!congested(socket) || !socket.connected) return Promise.resolve();
  return new Promise((resolve) => {
    // a drain is the usual signal; the timer covers transports that change underneath (polling → websocket)
    const check = () => {
      if (congested(socket) && socket.connected) return;
      clearInterval(timer);
      socket.conn.off('drain', check);
      resolve();
    };
    const timer = setInterval(check, RECHECK_MS);
    socket.conn.on('drain', check);
  });
}

/** What a socket.io Socket typed by the contract offers (live.gateway's LiveSocket). */
export interface ContractSocket {
  readonly connected: boolean;
  emit<E extends ServerEvent>(event: E, ...body: [ServerEvents[E]]): boolean;
  join(room: string): unknown;
  leave(room: string): unknown;
  readonly conn: unknown;
}

/** A socket.io Socket as a FlowSocket: engine.io's typings keep `writeBuffer` private, but it is the queue to watch. */
export function flowSocketOf(socket: ContractSocket): FlowSocket {
  return {
    get connected() {
      return socket.connected;
    },
    emit: (event, body) => socket.emit(event, body),
    join: (room) => void socket.join(room),
    leave: (room) => void socket.leave(room),
    conn: socket.conn as FlowSocket['conn'],
  };
}

/** A room broadcast, typed by the contract: socket.io's own typing of `to(room).emit` does not follow a generic event name. */
interface ContractBroadcast {
  emit<E extends ServerEvent>(event: E, body: ServerEvents[E]): boolean;
}

/** `server.to(room).emit(…)` for one packet: encoded once, written to every socket in the room. */
export function broadcast<E extends ServerEvent>(server: LiveServer, room: string, [event, body]: Packet<E>): void {
  (server.to(room) as ContractBroadcast).emit(event, body);
}
