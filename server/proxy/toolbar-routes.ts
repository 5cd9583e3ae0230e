/**
 * The proxy's own paths, under `/__agentbar/`: the start script, the sign-in, and the toolbar's
 * scripts, which it relays from the agent server (they hold no secret). Nothing here is passed to
 * the upstream, and nothing of the upstream is served here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SignInLinks } from '../edge/sign-in-links.ts';
import { deriveProxyKey, proxySessionCookie, TOOLBAR_PREFIX } from './proxy-credentials.ts';
import { ownPageHeaders, renderProxySignInHelp, renderSignedInPage, renderStartScript } from './proxy-pages.ts';

/** The agent server's public scripts, as the toolbar asks for them beside its own. */
const RELAYED = /^\/(?:toolbar|panel|screenshot|page-tools|page-capture)\.js$|^\/lang\/[a-z][a-z0-9-]{0,31}\.js$/;

export interface ToolbarRoutes {
  token: string;
  signIn: SignInLinks;
  /** Passes the request (its URL already without the prefix) on to the agent server. */
  relay: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Answers a request under `/__agentbar/`. `path` is the request's path.
 *
 * @example if (path.startsWith(`${TOOLBAR_PREFIX}/`)) return serveToolbarRoute(req, res, path, routes);
 */
export function serveToolbarRoute(req: IncomingMessage, res: ServerResponse, path: string, routes: ToolbarRoutes): void {
  const own = path.slice(TOOLBAR_PREFIX.length);
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { 'Content-Type': 'text/plain', Allow: 'GET, HEAD' }, 'Method not allowed\n');
  if (own === '/start.js') {
    return send(res, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }, renderStartScript());
  }
  const code = /^\/sign-in\/([A-Za-z0-9_-]{1,64})$/.exec(own)?.[1];
  if (code !== undefined) {
    // A HEAD (a link preview) learns whether the code is live without using it up.
    if (req.method === 'HEAD') return send(res, routes.signIn.isLive(code) ? 200 : 403, ownPageHeaders(), '');
    if (!routes.signIn.redeem(code)) return send(res, 403, ownPageHeaders(), renderProxySignInHelp('used'));
    const page = renderSignedInPage(deriveProxyKey(routes.token));
    return send(res, 200, { ...page.headers, 'Set-Cookie': proxySessionCookie(routes.token) }, page.html);
  }
  if (own === '/sign-in') return send(res, 200, ownPageHeaders(), renderProxySignInHelp('missing'));
  if (RELAYED.test(own)) {
    req.url = own;
    // The app's cookies are not the agent server's business.
    delete req.headers.cookie;
    return routes.relay(req, res);
  }
  send(res, 404, { 'Content-Type': 'text/plain' }, 'Not found\n');
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.end(body);
}
