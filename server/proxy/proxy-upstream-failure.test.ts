import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NAVIGATION, request, startUpstream, useProxyFixture } from '../../test-support/proxy-fixture.ts';

/** An address where nothing listens: a port taken and given back. */
async function stoppedUpstream(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('agentbar proxy: an upstream that is down or slow', () => {
  const start = useProxyFixture();

  it('answers a page that names the stopped upstream, says how to start it and retries by itself', async () => {
    const upstream = await stoppedUpstream();
    const { proxy } = await start(upstream);
    const page = await request(`${proxy.url}/orders`, NAVIGATION);
    expect(page.status).toBe(502);
    expect(page.body).toContain(`Waiting for ${upstream}`);
    expect(page.body).toContain('connection refused (ECONNREFUSED)');
    expect(page.body).toContain('npm run dev');
    expect(page.body).toContain('<meta http-equiv="refresh" content="2">');
    const script = await request(`${proxy.url}/app.js`, { accept: '*/*' });
    expect(script.status).toBe(502);
    expect(script.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('serves the app once the upstream is started, on the same proxy', async () => {
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('up') });
    const url = upstream.url;
    await upstream.close();
    const { proxy } = await start(url);
    expect((await request(`${proxy.url}/`, NAVIGATION)).status).toBe(502);
    const port = Number(new URL(url).port);
    const again = http.createServer((_req, res) => res.end('up again'));
    await new Promise<void>((resolve) => again.listen(port, '127.0.0.1', resolve));
    try {
      expect((await request(`${proxy.url}/`, NAVIGATION)).body).toBe('up again');
    } finally {
      await new Promise<void>((resolve) => again.close(() => resolve()));
    }
  });

  it('answers 504 with the same retrying page when the upstream takes the request and says nothing', async () => {
    const upstream = await startUpstream({ '/': () => {} });
    try {
      const { proxy } = await start(upstream.url, { headersTimeoutMs: 200 });
      const page = await request(`${proxy.url}/`, NAVIGATION);
      expect(page.status).toBe(504);
      expect(page.body).toContain(`Your dev server at ${upstream.url} took the request but has not answered`);
      expect(page.body).toContain('<meta http-equiv="refresh"');
    } finally {
      await upstream.close();
    }
  });
});
