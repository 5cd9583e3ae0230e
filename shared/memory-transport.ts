/**
 * An in-memory `ConnectTransport` for tests: each connect call creates a `MemoryConnection` whose
 * server side the test drives by hand (open, send frames, close), and which records what the
 * client sent. Delivery is synchronous, so tests need no waiting; only the close that follows a
 * client's own `close()` arrives a microtask later, as a WebSocket's `close` event does.
 */
import type { ConnectTransport, TransportHandlers } from './transport.ts';

export interface MemoryConnection {
  /** Frames the client sent on this connection, parsed from JSON, oldest first. */
  readonly sent: unknown[];
  /** True once `open()` ran and until either side closed. */
  readonly isOpen: boolean;
  readonly isClosed: boolean;
  /** The code and reason the client passed to `close()`, or null when it did not close. */
  readonly closedByClient: { code: number | undefined; reason: string | undefined } | null;
  /** Fires the client's `onOpen`. */
  open(): void;
  /** Sends one frame to the client: a string as is (to test bad JSON), anything else as JSON. */
  send(frame: unknown): void;
  /** Closes from the server side (or fails a connection that never opened); the client sees it at once. */
  close(code?: number, reason?: string): void;
}

export interface MemoryConnector {
  readonly connect: ConnectTransport;
  /** Every connection the client opened, oldest first. */
  readonly connections: readonly MemoryConnection[];
  /** The newest connection; throws when the client has not connected yet. */
  latest(): MemoryConnection;
}

/**
 * @example
 * const net = createMemoryConnector({ autoOpen: true });
 * const client = createSyncClient({ connect: net.connect, client: { kind: 'cli' } });
 * client.start();
 * net.latest().sent[0]; // the hello frame
 * net.latest().send({ type: 'welcome', protocol: 1, session: 's1', resumed: false });
 */
export function createMemoryConnector(options: { autoOpen?: boolean } = {}): MemoryConnector {
  const connections: MemoryConnection[] = [];
  const connect: ConnectTransport = (handlers) => {
    const conn = createConnection(handlers);
    connections.push(conn);
    // A real socket opens after connect() returns, never inside it.
    if (options.autoOpen) queueMicrotask(() => !conn.isClosed && conn.open());
    return {
      send: (data) => conn.receiveFromClient(data),
      close: (code, reason) => conn.closeFromClient(code, reason),
    };
  };
  return {
    connect,
    connections,
    latest() {
      const last = connections[connections.length - 1];
      if (!last) throw new Error('The client has not connected yet');
      return last;
    },
  };
}

interface InternalConnection extends MemoryConnection {
  receiveFromClient(data: string): void;
  closeFromClient(code?: number, reason?: string): void;
}

function createConnection(handlers: TransportHandlers): InternalConnection {
  let opened = false;
  let closed = false;
  let closedByClient: MemoryConnection['closedByClient'] = null;
  const sent: unknown[] = [];
  return {
    sent,
    get isOpen() {
      return opened && !closed;
    },
    get isClosed() {
      return closed;
    },
    get closedByClient() {
      return closedByClient;
    },
    open() {
      if (opened || closed) throw new Error('open() on a connection that already opened or closed');
      opened = true;
      handlers.onOpen();
    },
    send(frame) {
      if (!opened || closed) throw new Error('The server sent on a connection that is not open');
      handlers.onMessage(typeof frame === 'string' ? frame : JSON.stringify(frame));
    },
    close(code = 1006, reason = '') {
      if (closed) return;
      closed = true;
      handlers.onClose(code, reason);
    },
    // Misuse throws so that a client bug (sending before open or after close) fails the test.
    receiveFromClient(data) {
      if (!opened || closed) throw new Error('The client sent on a connection that is not open');
      sent.push(JSON.parse(data));
    },
    closeFromClient(code, reason) {
      if (closed) return;
      closed = true;
      closedByClient = { code, reason };
      queueMicrotask(() => handlers.onClose(code ?? 1005, reason ?? ''));
    },
  };
}
