/**
 * The toolbar's WebSocket on the proxy (`/__agentbar/ws`), relayed to the agent server. The page
 * proves itself with the proxy's browser key and cookie; the relay then opens the agent server's
 * socket with the token, which therefore never reaches the page.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { normalizeOrigin } from '../edge/security.ts';
import { refuseUpgrade } from '../edge/websocket-upgrade.ts';
import { holdsProxyCredentials } from './proxy-credentials.ts';

/**
 * Why the toolbar's socket is refused, or null: its page must be the proxy's own (same origin as
 * the Host it asked) and hold the proxy's key (as `?token=`) and cookie.
 *
 * @example checkToolbarSocket(req, token) // null, or 'Origin not allowed'
 */
export function checkToolbarSocket(req: IncomingMessage, token: string): string | null {
  const own = normalizeOrigin(`http://${req.headers.host ?? ''}`);
  const origin = req.headers.origin === undefined ? null : normalizeOrigin(req.headers.origin);
  if (!own || origin !== own) return 'Origin not allowed';
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!holdsProxyCredentials(token, url.searchParams.get('token'), req.headers.cookie)) return 'Missing or wrong token';
  return null;
}

/**
 * Relays an upgrade at `/__agentbar/ws` once `checkToolbarSocket` passes: the agent server gets
 * `/ws` with the token in `Authorization` and without the page's cookies or key.
 *
 * @example relayToolbarSocket(req, socket, head, { token, relay: (r, s, h, headers) => proxy.ws(r, s, h, { target, headers }) })
 */
export function relayToolbarSocket(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  options: { token: string; log: (message: string) => void; relay: (req: IncomingMessage, socket: Duplex, head: Buffer, headers: Record<string, string>) => void },
): void {
  const why = checkToolbarSocket(req, options.token);
  if (why) {
    options.log(`Refused the toolbar's socket: ${why}. Sign this browser in with the address agentbar proxy printed.`);
    return refuseUpgrade(socket, 403, `Forbidden: ${why}`);
  }
  req.url = '/ws';
  delete req.headers.cookie;
  options.relay(req, socket, head, { authorization: `Bearer ${options.token}` });
}
