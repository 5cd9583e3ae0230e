/**
 * The WebSocket edge: `ws` (noServer) takes an HTTP upgrade at `/ws` once the Host, Origin and
 * token checks pass (the token, or the demo page's browser key with the session cookie), makes
 * each socket a `ClientConnection`, and pings every client on a heartbeat until the server closes.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ClientConnection, type ConnectionHost } from '../sync/connection.ts';
import { checkAccess, describeRefusal, type AccessPolicy } from './security.ts';
import type { SocketGuard } from './socket-guard.ts';

export interface WebSocketUpgradeOptions {
  policy: AccessPolicy;
  guard: SocketGuard;
  /** What every client's connection works with; its `log` also gets the refusals. */
  connection: ConnectionHost;
  maxFrameBytes: number;
  /** Clients that get permessage-deflate at once (0: none); see `ServerOptions.maxDeflateClients`. */
  maxDeflateClients: number;
  heartbeatMs: number;
}

export interface WebSocketUpgrade {
  /** Stops the heartbeat and closes every client gracefully. */
  close(): void;
}

/** The same refusal is logged once a minute, so a toolbar that retries for ever does not flood the log. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;
const MAX_REFUSALS_REMEMBERED = 100;

/**
 * Answers a refused upgrade and lets go of the socket once the answer is written. Node's HTTP
 * timeouts no longer watch a socket handed to the upgrade listener, so ending only our side would
 * keep it open for as long as the client keeps its own side open.
 *
 * @example refuseUpgrade(socket, 403, 'Forbidden: Host not allowed')
 */
export function refuseUpgrade(socket: Duplex, status: number, why: string): void {
  const body = `${why}\n`;
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** A log of refused WebSockets that says each reason (per origin) at most once a minute. */
function createRefusalLog(log: ConnectionHost['log']): (message: string) => void {
  const lastRefusal = new Map<string, number>();
  return (message) => {
    const now = Date.now();
    if ((lastRefusal.get(message) ?? -Infinity) > now - REFUSAL_LOG_INTERVAL_MS) return;
    if (lastRefusal.size >= MAX_REFUSALS_REMEMBERED) lastRefusal.clear();
    lastRefusal.set(message, now);
    log('warn', `Refused a WebSocket: ${message}`);
  };
}

/**
 * Takes the WebSocket upgrades of `http`.
 *
 * @example
 * const sockets = attachWebSockets(http, { policy, guard, connection, maxFrameBytes, maxDeflateClients: 16, heartbeatMs: 30_000 });
 * // on shutdown, before http.close():
 * sockets.close();
 */
export function attachWebSockets(http: Server, options: WebSocketUpgradeOptions): WebSocketUpgrade {
  const { policy, guard, connection: host } = options;
  const maxPayload = options.maxFrameBytes;
  // Two servers, one per answer to the client's deflate offer: the upgrade picks by the count.
  const wssDeflate = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: { threshold: 0, concurrencyLimit: 10 } });
  const wssPlain = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });
  let deflateClients = 0;
  const connections = new Set<ClientConnection>();
  const noteRefusal = createRefusalLog(host.log);

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404, 'Not found');
    const why = checkAccess(policy, { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization, cookie: req.headers.cookie }, url, true);
    if (why) {
      noteRefusal(describeRefusal(why, req.headers));
      return refuseUpgrade(socket, 403, `Forbidden: ${why}`);
    }
    guard.trust(socket as Socket);
    (deflateClients < options.maxDeflateClients ? wssDeflate : wssPlain).handleUpgrade(req, socket, head, (ws) => {
      // Only a client that accepted deflate holds a slot (ws completes the upgrade synchronously).
      if (ws.extensions.includes('permessage-deflate')) {
        deflateClients++;
        ws.once('close', () => deflateClients--);
      }
      const connection = new ClientConnection(ws, host);
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
    });
  });

  const heartbeat = setInterval(() => {
    for (const c of connections) if (!c.ping()) connections.delete(c);
  }, options.heartbeatMs);
  heartbeat.unref();

  return {
    close() {
      clearInterval(heartbeat);
      for (const c of connections) c.closeGracefully();
      wssDeflate.close();
      wssPlain.close();
    },
  };
}
