/**
 * Sends the upstream's answer on to the browser: its headers rewritten for the proxy's origin, and,
 * for an HTML document the browser navigates to, the body decoded and given the toolbar's tags as
 * it streams. Every other answer (scripts, images, server-sent events) flows through as it came.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, type Transform } from 'node:stream';
import { amendPolicy, readScriptNonce } from './amend-csp.ts';
import { createDecoder } from './decode-body.ts';
import { createHeadInjector } from './inject-html.ts';
import { TOOLBAR_PREFIX } from './proxy-credentials.ts';
import { renderInjectedTags } from './proxy-pages.ts';
import { rewriteLocation, rewriteSetCookie } from './rewrite-headers.ts';

/** Headers of one hop only, never passed on. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

export interface ResponseContext {
  /** The upstream's origin, e.g. `http://localhost:3000`. */
  upstreamOrigin: string;
  /** The proxy's origin as this browser addressed it, e.g. `http://localhost:4478`. */
  proxyOrigin: string;
  /** False for the agent server's own scripts, which pass as they are. */
  inject: boolean;
  /** Says once why a document went out without the toolbar. */
  note: (message: string) => void;
}

/**
 * Whether the toolbar goes into this answer: a GET the browser makes to show a page (not a fetch of
 * HTML by the page's scripts, nor a frame), answered with an HTML body.
 */
function wantsToolbar(req: IncomingMessage, res: IncomingMessage): boolean {
  if (req.method !== 'GET') return false;
  const status = res.statusCode ?? 0;
  if (status < 200 || status === 204 || status === 304) return false;
  const dest = req.headers['sec-fetch-dest'];
  if (dest !== undefined && dest !== 'document') return false;
  return /^\s*text\/html\b/i.test(res.headers['content-type'] ?? '');
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The upstream's headers less the hop-by-hop ones, with redirects and cookies made the proxy's. */
function rewriteHeaders(headers: IncomingHttpHeaders, ctx: ResponseContext): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  if (typeof out.location === 'string') out.location = rewriteLocation(out.location, ctx.upstreamOrigin, ctx.proxyOrigin);
  if (out['set-cookie']) out['set-cookie'] = out['set-cookie'].map(rewriteSetCookie);
  return out;
}

/**
 * The headers of a document the toolbar goes into, and the nonce its tags carry: the CSP amended
 * for the toolbar, no length (the body grows), no encoding once decoded, and a weak validator since
 * the bytes are no longer the upstream's.
 */
function injectedHeaders(headers: IncomingHttpHeaders, decoded: boolean, ctx: ResponseContext): { headers: IncomingHttpHeaders; nonce: string | null } {
  const out = { ...headers };
  delete out['content-length'];
  delete out['content-md5'];
  if (decoded) delete out['content-encoding'];
  if (typeof out.etag === 'string' && !out.etag.startsWith('W/')) out.etag = `W/${out.etag}`;
  const enforced = asList(out['content-security-policy']);
  const nonce = readScriptNonce(enforced);
  const sources = { scripts: `${ctx.proxyOrigin}${TOOLBAR_PREFIX}/`, socket: `${ctx.proxyOrigin.replace(/^http/, 'ws')}${TOOLBAR_PREFIX}/ws` };
  if (enforced.length) out['content-security-policy'] = enforced.map((p) => amendPolicy(p, sources)).join(', ');
  const reportOnly = asList(out['content-security-policy-report-only']);
  if (reportOnly.length) out['content-security-policy-report-only'] = reportOnly.map((p) => amendPolicy(p, sources)).join(', ');
  return { headers: out, nonce };
}

/**
 * Writes the upstream's answer `upstream` to `res`.
 *
 * @example proxy.on('proxyRes', (upstream, req, res) => forwardResponse(upstream, req, res, ctx))
 */
export function forwardResponse(upstream: IncomingMessage, req: IncomingMessage, res: ServerResponse, ctx: ResponseContext): void {
  const status = upstream.statusCode ?? 502;
  const headers = rewriteHeaders(upstream.headers, ctx);
  let stages: Transform[] = [];
  let sent = headers;
  if (ctx.inject && wantsToolbar(req, upstream)) {
    const decoder = createDecoder(upstream.headers['content-encoding']);
    if (decoder === undefined) {
      ctx.note(`A page came ${upstream.headers['content-encoding']}-encoded, which this Node (${process.version}) cannot decode: it went out without the toolbar (Node 22.15 or later decodes zstd).`);
    } else {
      const injected = injectedHeaders(headers, decoder !== null, ctx);
      sent = injected.headers;
      stages = [...(decoder ? [decoder] : []), createHeadInjector(renderInjectedTags(injected.nonce))];
    }
  }
  res.writeHead(status, upstream.statusMessage, sent);
  // Server-sent events and streamed pages must reach the browser as they come.
  res.flushHeaders();
  pipeline([upstream, ...stages, res], () => {});
}
