/**
 * Section 11 (key `proxy`): what `agentbar proxy` adds on loopback. A plain Node dev server serves a
 * 40 KB page (gzip, which the proxy decodes and injects into), a 40 KB script (passed through
 * compressed) and a WebSocket echo (an HMR message); each is timed straight from the dev server and
 * through the proxy, alternating, on kept-alive sockets. The figure is the difference of the p50s.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import WebSocket, { WebSocketServer } from 'ws';
import { createSignInLinks } from '../server/edge/sign-in-links.ts';
import { startProxy } from '../server/proxy/start-proxy.ts';
import { startServer } from '../server/server.ts';
import type { BenchConfig } from './config.ts';
import { atMost, judge, type Section } from './report.ts';
import { percentile } from './stats.ts';

export interface ProxyCost {
  requests: number;
  rows: { what: string; directP50: number; proxiedP50: number; addedP50: number; addedP95: number }[];
}

const PAGE = zlib.gzipSync(`<!doctype html><html><head><title>App</title></head><body>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(1_200)}</body></html>`);
const SCRIPT = zlib.gzipSync(`export const rows = ${JSON.stringify(Array.from({ length: 2_000 }, (_, i) => `row ${i}`))};`);

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

async function roundTrip(ws: WebSocket): Promise<number> {
  const started = performance.now();
  ws.send('update');
  await once(ws, 'message');
  return performance.now() - started;
}

/** Times `direct` and `proxied` alternately, `n` times each. */
async function compare(n: number, direct: () => Promise<number>, proxied: () => Promise<number>): Promise<{ direct: number[]; proxied: number[] }> {
  const out = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < n; i++) {
    out.direct.push(await direct());
    out.proxied.push(await proxied());
  }
  return out;
}

export async function measureProxy(config: BenchConfig, progress: (what: string) => void): Promise<ProxyCost> {
  const n = config.smoke ? 50 : 500;
  const upstream = http.createServer((req, res) => {
    if (req.url === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript', 'Content-Encoding': 'gzip' }).end(SCRIPT);
    else res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(PAGE);
  });
  const wss = new WebSocketServer({ server: upstream });
  wss.on('connection', (ws) => ws.on('message', (data) => ws.send(data)));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-bench-proxy-'));
  const server = await startServer({ agents: [], port: 0, dataDir, repository: 'memory', writeConnectionFile: false, log: () => {} });
  const proxy = await startProxy({ upstream: upstreamUrl, agent: server, signIn: createSignInLinks(), port: 0, log: () => {} });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const navigation = { accept: 'text/html', 'sec-fetch-dest': 'document', 'accept-encoding': 'gzip, br' };
  try {
    progress(`proxy: ${n} page loads, script loads and HMR messages, straight and proxied`);
    const page = await compare(n, () => get(agent, `${upstreamUrl}/`, navigation), () => get(agent, `${proxy.url}/`, navigation));
    const script = await compare(n, () => get(agent, `${upstreamUrl}/app.js`, { 'accept-encoding': 'gzip' }), () => get(agent, `${proxy.url}/app.js`, { 'accept-encoding': 'gzip' }));
    const straight = new WebSocket(`${upstreamUrl.replace('http', 'ws')}/`);
    const through = new WebSocket(`${proxy.url.replace('http', 'ws')}/`);
    await Promise.all([once(straight, 'open'), once(through, 'open')]);
    const hmr = await compare(n, () => roundTrip(straight), () => roundTrip(through));
    straight.close();
    through.close();
    const row = (what: string, m: { direct: number[]; proxied: number[] }) => {
      const added = m.proxied.map((p, i) => p - m.direct[i]!);
      return { what, directP50: percentile(m.direct, 50), proxiedP50: percentile(m.proxied, 50), addedP50: percentile(m.proxied, 50) - percentile(m.direct, 50), addedP95: percentile(added, 95) };
    };
    return { requests: n, rows: [row('page load (40 KB gzip, injected)', page), row('script (passed through)', script), row('HMR message round trip', hmr)] };
  } finally {
    agent.destroy();
    await proxy.close();
    await server.close();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  }
}

const TARGET = atMost(5, ' ms');

export function proxySection(cost: ProxyCost): Section {
  return {
    key: 'proxy',
    title: '11. agentbar proxy on loopback',
    columns: ['What', 'Straight p50 (ms)', 'Proxied p50 (ms)', 'Added p50 (ms)', 'Target', '', 'Added p95 (ms)'],
    rows: cost.rows.map((r) => [r.what, r.directP50, r.proxiedP50, r.addedP50, TARGET.text, judge(r.addedP50, TARGET), r.addedP95]),
    notes: [`${cost.requests} of each, alternating straight and proxied, one kept-alive socket each way.`],
    data: cost,
  };
}
