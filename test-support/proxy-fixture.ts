/**
 * The fixture of the proxy's tests: a plain Node upstream on 127.0.0.1 port 0 (the developer's dev
 * server, with the routes a test gives), an agent server, and `agentbar proxy` between the browser
 * and the upstream, all closed after each test.
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach } from 'vitest';
import { WebSocketServer } from 'ws';
import { createSignInLinks } from '../server/edge/sign-in-links.ts';
import { startProxy, type AgentbarProxy, type ProxyOptions } from '../server/proxy/start-proxy.ts';
import { createHarness, type TestServer } from './test-server.ts';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Upstream {
  url: string;
  /** Every request's headers as the upstream got them, by path. */
  seen: Map<string, IncomingMessage['headers']>;
  close(): Promise<void>;
}

const TLS_DIR = path.join(import.meta.dirname, 'tls');

/**
 * A dev server answering `routes` by path (404 otherwise), with a WebSocket echo at `/hmr` that
 * first sends the Origin it was opened with. `tls` serves it over https with the self-signed test
 * certificate.
 *
 * @example const upstream = await startUpstream({ '/': (req, res) => res.end('<html><head></head></html>') });
 */
export async function startUpstream(routes: Record<string, Route>, options: { tls?: boolean } = {}): Promise<Upstream> {
  const seen = new Map<string, IncomingMessage['headers']>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const route = (req.url ?? '/').split('?')[0]!;
    seen.set(route, req.headers);
    const answer = routes[route];
    if (answer) return answer(req, res);
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  };
  const server = options.tls
    ? https.createServer({ cert: readFileSync(path.join(TLS_DIR, 'localhost-cert.pem')), key: readFileSync(path.join(TLS_DIR, 'localhost-key.pem')) }, handler)
    : http.createServer(handler);
  const wss = new WebSocketServer({ server, path: '/hmr' });
  wss.on('connection', (ws, req) => {
    ws.send(`origin ${req.headers.origin ?? 'none'}`);
    ws.on('message', (data) => ws.send(`echo ${String(data)}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ProxyFixture {
  server: TestServer;
  proxy: AgentbarProxy;
  /** What the proxy logged. */
  logs: string[];
}

/**
 * Registers cleanup and gives a function that starts an agent server and a proxy in front of
 * `upstream` (a URL: a test of a stopped upstream gives one where nothing listens).
 *
 * @example const start = useProxyFixture(); const { proxy } = await start(upstream.url);
 */
export function useProxyFixture(): (upstream: string, options?: Partial<ProxyOptions>) => Promise<ProxyFixture> {
  const harness = createHarness();
  const proxies: AgentbarProxy[] = [];
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await harness.cleanup();
  });
  return async (upstream, options = {}) => {
    const server = await harness.start({ memory: true, writeConnectionFile: false });
    const logs: string[] = [];
    const proxy = await startProxy({ upstream, agent: server, signIn: createSignInLinks(), port: 0, log: (_level, message) => logs.push(message), ...options });
    proxies.push(proxy);
    return { server, proxy, logs };
  };
}

/**
 * Signs a client in the way a browser does: opens the sign-in address and keeps the cookie and the
 * browser key the answer gives.
 *
 * @example const { cookie, key } = await signIn(proxy);
 */
export async function signIn(proxy: AgentbarProxy): Promise<{ cookie: string; key: string; page: string }> {
  const res = await fetch(proxy.signInUrl());
  const page = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const key = /localStorage\.setItem\("[^"]+", "([^"]+)"\)/.exec(page)?.[1] ?? '';
  return { cookie, key, page };
}

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A browser's navigation to a page: what it sends for a document. */
export const NAVIGATION = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-dest': 'document', 'accept-encoding': 'gzip, deflate, br, zstd' };

/**
 * One request over a real socket, with exactly the headers given (fetch would add its own).
 *
 * @example const page = await request(`${proxy.url}/`, NAVIGATION);
 */
export function request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
