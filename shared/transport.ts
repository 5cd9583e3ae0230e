/**
 * All socket I/O of a client sits behind this interface, so the sync client is testable with an
 * in-memory transport and runs on any WebSocket implementation (the browser's, or `ws` in Node 20,
 * which has no global WebSocket).
 */
export interface TransportHandlers {
  onOpen(): void;
  onMessage(data: string): void;
  /** Called once per transport, whether it opened or not. */
  onClose(code: number, reason: string): void;
}

export interface Transport {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Opens one connection; the sync client calls it again for every reconnect. */
export type ConnectTransport = (handlers: TransportHandlers) => Transport;

/** The part of the WebSocket API the connector uses: the browser's WebSocket and `ws` both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: any) => void) | null;
  // `any` events: the DOM and `ws` event types are richer, and handler parameters are checked contravariantly.
  onmessage: ((ev: any) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * A `ConnectTransport` over WebSocket.
 *
 * @example
 * import WebSocket from 'ws';
 * const connect = createWebSocketConnector('ws://127.0.0.1:4477/ws?token=…', WebSocket);
 */
export function createWebSocketConnector(url: string, WebSocketImpl?: WebSocketConstructor): ConnectTransport {
  const Impl = WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Impl) throw new Error('No WebSocket implementation: pass one (for example the `ws` package) in Node 20');
  return (handlers) => {
    const socket = new Impl(url);
    let closed = false;
    socket.onopen = () => handlers.onOpen();
    socket.onmessage = (ev) => handlers.onMessage(typeof ev.data === 'string' ? ev.data : String(ev.data));
    socket.onerror = () => {
      /* onclose follows with the code */
    };
    socket.onclose = (ev) => {
      if (closed) return;
      closed = true;
      handlers.onClose(ev.code, ev.reason);
    };
    return {
      send: (data) => {
        if (socket.readyState === 1) socket.send(data);
      },
      close: (code, reason) => {
        try {
          socket.close(code, reason);
        } catch {
          socket.close();
        }
      },
    };
  };
}
