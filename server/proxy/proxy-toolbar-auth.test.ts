import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TestClient } from '../../test-support/test-client.ts';
import { NAVIGATION, request, signIn, startUpstream, useProxyFixture } from '../../test-support/proxy-fixture.ts';

/** Tries the toolbar's socket on the proxy; gives its first message, or the refusal's status. */
function openToolbarSocket(url: string, headers: Record<string, string>): Promise<{ message?: string; status?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('message', (data) => {
      resolve({ message: String(data) });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      res.resume();
    });
    ws.once('error', reject);
  });
}

describe('agentbar proxy: the toolbar signs in without the token in the page', () => {
  const start = useProxyFixture();

  it("relays the signed-in toolbar's socket to the agent server with the token the page never sees", async () => {
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><head></head><body></body></html>') });
    try {
      const { proxy, server } = await start(upstream.url);
      const { cookie, key, page } = await signIn(proxy);
      expect(cookie).toMatch(/^agentbar_proxy=/);
      expect(key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      for (const text of [page, (await request(`${proxy.url}/`, NAVIGATION)).body, (await request(`${proxy.url}/__agentbar/start.js`)).body]) {
        expect(text).not.toContain(server.token);
      }
      const client = await TestClient.connect({ url: `${proxy.url.replace('http', 'ws')}/__agentbar/ws`, token: key }, { headers: { origin: proxy.url, cookie } });
      expect(client.state?.agents.map((a) => a.id)).toContain('test/echo');
      await client.terminate();
    } finally {
      await upstream.close();
    }
  });

  it('refuses the socket with the key alone, the cookie alone, the token itself, or from another origin', async () => {
    const upstream = await startUpstream({});
    try {
      const { proxy, server, logs } = await start(upstream.url);
      const { cookie, key } = await signIn(proxy);
      const base = `${proxy.url.replace('http', 'ws')}/__agentbar/ws`;
      const withKey = `${base}?token=${encodeURIComponent(key)}`;
      expect(await openToolbarSocket(withKey, { origin: proxy.url })).toEqual({ status: 403 });
      expect(await openToolbarSocket(base, { origin: proxy.url, cookie })).toEqual({ status: 403 });
      expect(await openToolbarSocket(`${base}?token=${encodeURIComponent(server.token)}`, { origin: proxy.url, cookie })).toEqual({ status: 403 });
      expect(await openToolbarSocket(withKey, { origin: 'http://127.0.0.1:1', cookie })).toEqual({ status: 403 });
      expect(logs.join('\n')).toContain("Refused the toolbar's socket");
    } finally {
      await upstream.close();
    }
  });

  it('opens a sign-in address once: a second use gets the page that says how to sign in', async () => {
    const upstream = await startUpstream({});
    try {
      const { proxy } = await start(upstream.url);
      const url = proxy.signInUrl();
      expect((await request(url, {}, 'HEAD')).status).toBe(200);
      const first = await request(url);
      expect(first.status).toBe(200);
      expect(first.headers['set-cookie']?.[0]).toMatch(/^agentbar_proxy=[^;]+; HttpOnly; SameSite=Strict; Path=\/__agentbar\/$/);
      const second = await request(url);
      expect(second.status).toBe(403);
      expect(second.body).toContain('already used');
      expect(second.headers['set-cookie']).toBeUndefined();
    } finally {
      await upstream.close();
    }
  });

  it("serves the toolbar's scripts from the agent server under /__agentbar/, never from the upstream", async () => {
    const upstream = await startUpstream({});
    try {
      const { proxy } = await start(upstream.url);
      const script = await request(`${proxy.url}/__agentbar/page-capture.js`);
      expect([200, 404]).toContain(script.status);
      expect(script.headers['content-type'] ?? '').toMatch(script.status === 200 ? /javascript/ : /text\/plain/);
      expect((await request(`${proxy.url}/__agentbar/agents`)).status).toBe(404);
      expect(upstream.seen.size).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});
