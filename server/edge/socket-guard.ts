/**
 * Caps the sockets the server holds, so idle or half-open connections cannot use up the process's
 * file descriptors (which the chat files need) or lock out a real client. A socket is "trusted"
 * once it became a WebSocket that passed the token check; when the cap is reached, the oldest
 * untrusted socket makes room, and only when every socket is trusted is the newcomer refused.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketLimits {
  /** Sockets open at once, WebSockets included. Keep it well under the file limit (often 1,024). */
  maxSockets: number;
  /** A request must send its headers within this long (a slow partial request gets 408). */
  headersTimeoutMs: number;
  /** A whole request, body included. */
  requestTimeoutMs: number;
  /** A socket silent this long before it became a WebSocket is closed. */
  idleTimeoutMs: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  maxSockets: 512,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 10_000,
};

/** Node checks header and request timeouts on an interval; this keeps it close to the limits. */
export function connectionsCheckingInterval(limits: SocketLimits): number {
  return Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
}

export interface SocketGuard {
  /** Marks a socket that proved it holds the token (its WebSocket upgrade passed). */
  trust(socket: Socket): void;
  /**
   * Lifts the idle timeout of a request that proved it holds the token, until its response ends:
   * an MCP tool call says nothing while the toolbar works, and 10 s of silence closed its socket.
   * `bindings` is hono's `c.env` under @hono/node-server (`{ incoming, outgoing }`); anything else
   * (a test's `app.request()`) is ignored.
   */
  allowSlowAnswer(bindings: unknown): void;
  readonly openSockets: number;
}

/**
 * @example
 * const http = createServer({ connectionsCheckingInterval: connectionsCheckingInterval(limits) }, listener);
 * const guard = guardSockets(http, limits, log);
 * // in the upgrade handler, once the checks pass: guard.trust(req.socket)
 */
export function guardSockets(http: Server, limits: SocketLimits, log: (message: string) => void): SocketGuard {
  http.headersTimeout = limits.headersTimeoutMs;
  http.requestTimeout = limits.requestTimeoutMs;
  // An inactivity timeout on every socket; ws clears it on the sockets it takes over.
  http.timeout = limits.idleTimeoutMs;
  // Insertion order is arrival order: the first entry is the oldest.
  const untrusted = new Set<Socket>();
  const trusted = new Set<Socket>();
  let evicted = 0;
  let lastWarning = 0;

  http.on('connection', (socket: Socket) => {
    untrusted.add(socket);
    socket.once('close', () => {
      untrusted.delete(socket);
      trusted.delete(socket);
    });
    if (untrusted.size + trusted.size <= limits.maxSockets) return;
    const victim = untrusted.values().next().value ?? socket;
    untrusted.delete(victim);
    trusted.delete(victim);
    victim.destroy();
    evicted++;
    // One line per burst, not one per socket.
    const now = Date.now();
    if (now - lastWarning > 10_000) {
      lastWarning = now;
      log(`More than ${limits.maxSockets} sockets open; closing the oldest that are not signed-in clients (${evicted} so far)`);
    }
  });

  return {
    trust(socket) {
      if (!untrusted.delete(socket)) return;
      trusted.add(socket);
    },
    allowSlowAnswer(bindings) {
      const { incoming, outgoing } = (bindings ?? {}) as { incoming?: IncomingMessage; outgoing?: ServerResponse };
      const socket = incoming?.socket;
      if (!socket || !outgoing) return;
      socket.setTimeout(0);
      // Kept alive for the next request, the socket is idle-limited again.
      outgoing.once('close', () => {
        if (!socket.destroyed) socket.setTimeout(limits.idleTimeoutMs);
      });
    },
    get openSockets() {
      return untrusted.size + trusted.size;
    },
  };
}
