/**
 * `startProxy`: a reverse proxy (http-proxy-3) in front of a developer's dev server that puts the
 * toolbar into its pages. Its own paths live under `/__agentbar/` (proxy-credentials.ts); every
 * other request and WebSocket goes to the upstream, looking to it as if the browser came directly.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { ProxyServer } from 'http-proxy-3';
import { isAllowedHost } from '../edge/security.ts';
import type { SignInLinks } from '../edge/sign-in-links.ts';
import { refuseUpgrade } from '../edge/websocket-upgrade.ts';
import { forwardResponse } from './forward-response.ts';
import { TOOLBAR_PREFIX } from './proxy-credentials.ts';
import { prepareUpstreamRequest } from './prepare-request.ts';
import { relayToolbarSocket } from './toolbar-socket-relay.ts';
import { serveToolbarRoute } from './toolbar-routes.ts';
import { describeUpstreamFailure } from './upstream-error-page.ts';

export interface ProxyOptions {
  /** The dev server, e.g. `http://localhost:3000`. */
  upstream: string;
  /** The agent server the toolbar talks to (`startServer`'s `httpUrl` and `token`). */
  agent: { httpUrl: string; token: string };
  /** One-time sign-in codes; the proxy prints an address holding one. */
  signIn: SignInLinks;
  /** 0 picks a free port. */
  port?: number;
  /** Loopback only: the proxy checks the Host of every request. */
  host?: '127.0.0.1' | 'localhost' | '::1';
  /** Accept an https upstream's certificate without checking it (a self-signed dev certificate). */
  insecureUpstream?: boolean;
  /** How long the upstream may take to start its answer (default 60 s: a first compile is slow). */
  headersTimeoutMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
}

export interface AgentbarProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** A one-time address (once, within 5 minutes) that signs a browser in and opens the app. */
  signInUrl(): string;
  close(): Promise<void>;
}

const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;

/** Why a request failed, in words: `connection refused (ECONNREFUSED)`. */
function describeCause(error: NodeJS.ErrnoException): string {
  const words: Record<string, string> = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'no such host', ECONNRESET: 'the connection was closed', EHOSTUNREACH: 'host unreachable' };
  const code = error.code ?? '';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `its certificate is not trusted (${code}); pass --insecure-upstream for a self-signed dev certificate`;
  return words[code] ? `${words[code]} (${code})` : error.message;
}

/**
 * Starts the proxy.
 *
 * @example
 * const server = await startServer({ agents, port: 0 });
 * const proxy = await startProxy({ upstream: 'http://localhost:3000', agent: server, signIn: createSignInLinks(), port: 0 });
 * console.log(proxy.signInUrl());
 */
export async function startProxy(options: ProxyOptions): Promise<AgentbarProxy> {
  const upstream = new URL(options.upstream);
  const upstreamOrigin = upstream.origin;
  const log = options.log ?? ((level, message) => (level === 'info' ? console.log : console.error)(`[agentbar proxy] ${message}`));
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const secure = !options.insecureUpstream;
  // Kept-alive sockets: a new connection per request would cost more than the proxy itself.
  const agent = upstream.protocol === 'https:' ? new https.Agent({ keepAlive: true, rejectUnauthorized: secure }) : new http.Agent({ keepAlive: true });
  const agentServerAgent = new http.Agent({ keepAlive: true });
  const proxy = new ProxyServer();
  const noted = new Set<string>();
  const note = (message: string) => {
    if (noted.has(message)) return;
    noted.add(message);
    log('warn', message);
  };
  let port = 0;
  const proxyOriginOf = (req: IncomingMessage) => `http://${req.headers.host}`;
  const started = new WeakMap<IncomingMessage, { timer: NodeJS.Timeout; abort?: () => void }>();

  const fail = (req: IncomingMessage, res: ServerResponse, kind: 'down' | 'slow', detail: string) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const wantsPage = req.method === 'GET' && /text\/html/.test(req.headers.accept ?? '');
    const answer = describeUpstreamFailure({ upstream: upstreamOrigin, kind, detail }, wantsPage);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

  proxy.on('proxyReq', (proxyReq, req) => {
    const entry = started.get(req);
    if (entry) entry.abort = () => proxyReq.destroy();
  });
  proxy.on('proxyRes', (upstreamRes, req, res) => {
    const entry = started.get(req);
    clearTimeout(entry?.timer);
    // Answered already: the upstream was too slow.
    if (res.headersSent) return upstreamRes.destroy();
    // Only the upstream's answers are the app's; the toolbar's scripts come from the agent server.
    const from = entry ? upstreamOrigin : new URL(options.agent.httpUrl).origin;
    forwardResponse(upstreamRes, req, res, { upstreamOrigin: from, proxyOrigin: proxyOriginOf(req), note, inject: entry !== undefined });
  });

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    prepareUpstreamRequest(req, proxyOriginOf(req), upstreamOrigin);
    const entry: { timer: NodeJS.Timeout; abort?: () => void } = {
      timer: setTimeout(() => {
        fail(req, res, 'slow', `no answer within ${Math.round(headersTimeoutMs / 1000)} s`);
        entry.abort?.();
      }, headersTimeoutMs),
    };
    started.set(req, entry);
    res.once('close', () => clearTimeout(entry.timer));
    proxy.web(req, res, { target: upstreamOrigin, changeOrigin: true, secure, agent, selfHandleResponse: true }, (error) => {
      clearTimeout(entry.timer);
      fail(req, res, 'down', describeCause(error as NodeJS.ErrnoException));
    });
  };

  const relayScript = (req: IncomingMessage, res: ServerResponse) => {
    proxy.web(req, res, { target: options.agent.httpUrl, changeOrigin: true, agent: agentServerAgent, selfHandleResponse: true }, (error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`The agent server did not answer: ${(error as Error).message}\n`);
    });
  };

  const server = http.createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, port)) {
      res.writeHead(403, { 'Content-Type': 'text/plain' });
      res.end('Forbidden: Host not allowed. Open the proxy as localhost, 127.0.0.1 or [::1] with its port.\n');
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith(`${TOOLBAR_PREFIX}/`)) return serveToolbarRoute(req, res, path, { token: options.agent.token, signIn: options.signIn, relay: relayScript });
    forward(req, res);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    if (!isAllowedHost(req.headers.host, port)) return refuseUpgrade(socket, 403, 'Forbidden: Host not allowed');
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === `${TOOLBAR_PREFIX}/ws`) {
      return relayToolbarSocket(req, socket, head, {
        token: options.agent.token,
        log: (message) => note(message),
        relay: (r, s, h, headers) => proxy.ws(r, s, h, { target: options.agent.httpUrl, changeOrigin: true, headers }, () => s.destroy()),
      });
    }
    prepareUpstreamRequest(req, proxyOriginOf(req), upstreamOrigin);
    proxy.ws(req, socket, head, { target: upstreamOrigin, changeOrigin: true, secure }, () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const host = options.host === '::1' ? '[::1]' : (options.host ?? '127.0.0.1');
  const url = `http://${host}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    signInUrl: () => `${url}${TOOLBAR_PREFIX}/sign-in/${options.signIn.issue().code}`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
        agentServerAgent.destroy();
        proxy.close();
      })),
  };
}
