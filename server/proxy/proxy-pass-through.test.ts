import { once } from 'node:events';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { NAVIGATION, request, startUpstream, useProxyFixture } from '../../test-support/proxy-fixture.ts';

/** Opens a WebSocket and gives it with its first message. */
async function openSocket(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; first: string }> {
  const ws = new WebSocket(url, { headers });
  const [data] = await once(ws, 'message');
  return { ws, first: String(data) };
}

describe('agentbar proxy: what passes through', () => {
  const start = useProxyFixture();

  it("passes the app's WebSocket (HMR) through, with the upstream's origin, both ways", async () => {
    const upstream = await startUpstream({});
    try {
      const { proxy } = await start(upstream.url);
      const { ws, first } = await openSocket(`${proxy.url.replace('http', 'ws')}/hmr`, { origin: proxy.url });
      expect(first).toBe(`origin ${upstream.url}`);
      ws.send('update');
      expect(String((await once(ws, 'message'))[0])).toBe('echo update');
      ws.close();
    } finally {
      await upstream.close();
    }
  });

  it('passes server-sent events through as they come', async () => {
    let second = () => {};
    const upstream = await startUpstream({
      '/events': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        res.write('data: one\n\n');
        second = () => res.end('data: two\n\n');
      },
    });
    try {
      const { proxy } = await start(upstream.url);
      const req = http.get(`${proxy.url}/events`, { headers: { accept: 'text/event-stream' }, agent: false });
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      res.setEncoding('utf8');
      expect(String((await once(res, 'data'))[0])).toBe('data: one\n\n');
      second();
      expect(String((await once(res, 'data'))[0])).toBe('data: two\n\n');
    } finally {
      await upstream.close();
    }
  });

  it("points redirects to the upstream's origin at the proxy, and leaves other sites' alone", async () => {
    const upstream = await startUpstream({
      '/old': (_req, res) => res.writeHead(302, { Location: `${upstreamUrl}/login?next=%2Fold#top` }).end(),
      '/away': (_req, res) => res.writeHead(301, { Location: 'https://example.com/x' }).end(),
      '/relative': (_req, res) => res.writeHead(307, { Location: '/new' }).end(),
    });
    const upstreamUrl = upstream.url;
    try {
      const { proxy } = await start(upstream.url);
      expect((await request(`${proxy.url}/old`)).headers.location).toBe(`${proxy.url}/login?next=%2Fold#top`);
      expect((await request(`${proxy.url}/away`)).headers.location).toBe('https://example.com/x');
      expect((await request(`${proxy.url}/relative`)).headers.location).toBe('/new');
    } finally {
      await upstream.close();
    }
  });

  it("keeps the upstream's cookies for the proxy's host: their Domain goes, the rest stays", async () => {
    const upstream = await startUpstream({
      '/login': (_req, res) => res.writeHead(200, { 'Set-Cookie': ['sid=abc; Domain=127.0.0.1; Path=/; HttpOnly', 'theme=dark; domain=localhost'] }).end('ok'),
    });
    try {
      const { proxy } = await start(upstream.url);
      expect((await request(`${proxy.url}/login`)).headers['set-cookie']).toEqual(['sid=abc; Path=/; HttpOnly', 'theme=dark']);
    } finally {
      await upstream.close();
    }
  });

  it('refuses a request whose Host is not loopback (DNS rebinding), before the upstream sees it', async () => {
    const upstream = await startUpstream({ '/': (_req, res) => res.end('secret') });
    try {
      const { proxy } = await start(upstream.url);
      const answer = await request(`${proxy.url}/`, { host: 'evil.example:80' });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('Host not allowed');
      expect(upstream.seen.size).toBe(0);
    } finally {
      await upstream.close();
    }
  });

  it('refuses an https upstream with a self-signed certificate unless --insecure-upstream, and then proxies it', async () => {
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><head></head></html>') }, { tls: true });
    try {
      const strict = await start(upstream.url);
      const refused = await request(`${strict.proxy.url}/`, NAVIGATION);
      expect(refused.status).toBe(502);
      expect(refused.body).toContain('--insecure-upstream');
      const insecure = await start(upstream.url, { insecureUpstream: true });
      const page = await request(`${insecure.proxy.url}/`, NAVIGATION);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<head><script src="/__agentbar/page-capture.js">');
      const { ws, first } = await openSocket(`${insecure.proxy.url.replace('http', 'ws')}/hmr`, { origin: insecure.proxy.url });
      expect(first).toBe(`origin ${upstream.url}`);
      ws.close();
    } finally {
      await upstream.close();
    }
  });
});
