/**
 * Makes a browser's request look to the upstream as if the browser had come to it directly: its
 * Origin and Referer name the upstream (dev servers check them on their HMR sockets and form
 * posts), and it asks only for encodings the proxy can undo.
 */
import type { IncomingMessage } from 'node:http';
import { acceptEncodingFor } from './decode-body.ts';

/** `value` with the proxy's origin at its start replaced by the upstream's. */
function toUpstream(value: string, proxyOrigin: string, upstreamOrigin: string): string {
  return value === proxyOrigin || value.startsWith(`${proxyOrigin}/`) ? upstreamOrigin + value.slice(proxyOrigin.length) : value;
}

/**
 * Rewrites `req`'s headers in place before it goes upstream.
 *
 * @example prepareUpstreamRequest(req, 'http://localhost:4478', 'http://localhost:3000')
 */
export function prepareUpstreamRequest(req: IncomingMessage, proxyOrigin: string, upstreamOrigin: string): void {
  const { origin, referer } = req.headers;
  if (origin) req.headers.origin = toUpstream(origin, proxyOrigin, upstreamOrigin);
  if (referer) req.headers.referer = toUpstream(referer, proxyOrigin, upstreamOrigin);
  const accept = acceptEncodingFor(req.headers['accept-encoding']);
  if (accept === undefined || accept === '') delete req.headers['accept-encoding'];
  else req.headers['accept-encoding'] = accept;
}
