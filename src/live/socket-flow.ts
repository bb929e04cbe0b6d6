// Backpressure on one socket.io connection: engine.io queues packets in `writeBuffer` while its
// transport cannot write (a reader that does not read fills the TCP window, then the WebSocket's
// send callbacks stop coming). A feed emits only while that buffer is short, so what a slow reader
// has not taken stays in the feed's own bounded queue — never in unbounded socket buffers.

/** The parts of a socket.io Socket the live feed uses. */
export interface FlowSocket {
  readonly connected: boolean;
  emit(event: string, ...args: unknown[]): boolean;
  readonly conn: {
    readonly writeBuffer: readonly unknown[];
    on(event: 'drain', listener: () => void): unknown;
    off(event: 'drain', listener: () => void): unknown;
  };
}

/** packets waiting in engine.io's buffer beyond which a feed stops emitting */
export const HIGH_WATER_PACKETS = 8;
const RECHECK_MS = 50;

export function congested(socket: FlowSocket): boolean {
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

/** A socket.io Socket as a FlowSocket: engine.io's typings keep `writeBuffer` private, but it is the queue to watch. */
export function flowSocketOf(socket: {
  readonly connected: boolean;
  emit(event: string, ...args: unknown[]): boolean;
  readonly conn: unknown;
}): FlowSocket {
  return {
    get connected() {
      return socket.connected;
    },
    emit: (event, ...args) => socket.emit(event, ...args),
    conn: socket.conn as FlowSocket['conn'],
  };
}
