import { once } from 'node:events';
import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NAVIGATION, request, startUpstream, useProxyFixture } from '../../test-support/proxy-fixture.ts';
import { CAN_DECODE_ZSTD } from './decode-body.ts';

const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body><h1>My app</h1></body></html>';
const TAGS = '<script src="/__agentbar/page-capture.js"></script><script src="/__agentbar/start.js" defer></script>';

describe('agentbar proxy: the toolbar in HTML documents', () => {
  const start = useProxyFixture();

  it('puts the toolbar right after <head> of a page and passes other files untouched', async () => {
    const upstream = await startUpstream({
      '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(PAGE) }).end(PAGE),
      '/app.js': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/javascript' }).end('console.log("<head>")'),
    });
    try {
      const { proxy, server } = await start(upstream.url);
      const page = await request(`${proxy.url}/`, NAVIGATION);
      expect(page.status).toBe(200);
      expect(page.body).toBe(PAGE.replace('<head>', `<head>${TAGS}`));
      expect(page.headers['content-length']).toBeUndefined();
      expect(page.body).not.toContain(server.token);
      const script = await request(`${proxy.url}/app.js`, { 'sec-fetch-dest': 'script' });
      expect(script.body).toBe('console.log("<head>")');
    } finally {
      await upstream.close();
    }
  });

  it('leaves HTML that the page fetches itself (not a navigation) as it is', async () => {
    const upstream = await startUpstream({ '/fragment': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE) });
    try {
      const { proxy } = await start(upstream.url);
      const fetched = await request(`${proxy.url}/fragment`, { accept: 'text/html', 'sec-fetch-dest': 'empty' });
      expect(fetched.body).toBe(PAGE);
    } finally {
      await upstream.close();
    }
  });

  it.each([
    ['gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['br', (b: Buffer) => zlib.brotliCompressSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateSync(b)],
  ])('decodes a %s page to inject into it, and passes a %s script on still compressed', async (encoding, encode) => {
    const upstream = await startUpstream({
      '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': encoding }).end(encode(Buffer.from(PAGE))),
      '/app.js': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/javascript', 'Content-Encoding': encoding }).end(encode(Buffer.from('1+1'))),
    });
    try {
      const { proxy } = await start(upstream.url);
      const page = await request(`${proxy.url}/`, NAVIGATION);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.body).toBe(PAGE.replace('<head>', `<head>${TAGS}`));
      const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve) => {
        http.get(`${proxy.url}/app.js`, { agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
        });
      });
      expect(raw.encoding).toBe(encoding);
      expect(raw.bytes.equals(encode(Buffer.from('1+1')))).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it.runIf(!CAN_DECODE_ZSTD)('asks the upstream for no zstd on a Node that cannot decode it, and passes a zstd page on uninjected with a log line', async () => {
    const upstream = await startUpstream({
      '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE),
      '/zstd': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'zstd' }).end('zstd bytes'),
    });
    try {
      const { proxy, logs } = await start(upstream.url);
      await request(`${proxy.url}/`, NAVIGATION);
      expect(upstream.seen.get('/')?.['accept-encoding']).toBe('gzip, deflate, br');
      const page = await request(`${proxy.url}/zstd`, NAVIGATION);
      expect(page.body).toBe('zstd bytes');
      expect(page.headers['content-encoding']).toBe('zstd');
      expect(logs.join('\n')).toMatch(/zstd-encoded.*without the toolbar.*Node 22\.15/);
    } finally {
      await upstream.close();
    }
  });

  it.runIf(CAN_DECODE_ZSTD)('decodes a zstd page to inject into it', async () => {
    const encode = (zlib as unknown as { zstdCompressSync: (b: Buffer) => Buffer }).zstdCompressSync;
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'zstd' }).end(encode(Buffer.from(PAGE))) });
    try {
      const { proxy } = await start(upstream.url);
      const page = await request(`${proxy.url}/`, NAVIGATION);
      expect(page.body).toBe(PAGE.replace('<head>', `<head>${TAGS}`));
    } finally {
      await upstream.close();
    }
  });

  it('sends the toolbar with the first piece of a streamed page, before the upstream has sent the rest', async () => {
    let finish = () => {};
    const upstream = await startUpstream({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
        const gzip = zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
        gzip.pipe(res);
        gzip.write('<!doctype html><html><head><title>Streaming</title></head><body><div id="shell">Loading…</div>');
        finish = () => gzip.end('<div id="late">done</div></body></html>');
      },
    });
    try {
      const { proxy } = await start(upstream.url);
      const req = http.get(`${proxy.url}/`, { headers: NAVIGATION, agent: false });
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      let text = '';
      res.setEncoding('utf8');
      while (!text.includes('Loading…')) text += String((await once(res, 'data'))[0]);
      expect(text).toContain(`<head>${TAGS}<title>Streaming</title>`);
      expect(text).not.toContain('late');
      finish();
      res.on('data', (c: string) => (text += c));
      await once(res, 'end');
      expect(text).toContain('<div id="late">done</div></body></html>');
    } finally {
      await upstream.close();
    }
  });

  it('gives its tags the nonce of a nonce-based policy and leaves that policy as it is', async () => {
    const policy = "script-src 'nonce-abc123' 'strict-dynamic'; object-src 'none'";
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': policy }).end(PAGE) });
    try {
      const { proxy } = await start(upstream.url);
      const page = await request(`${proxy.url}/`, NAVIGATION);
      expect(page.body).toContain('<script src="/__agentbar/page-capture.js" nonce="abc123"></script><script src="/__agentbar/start.js" defer nonce="abc123"></script>');
      expect(page.headers['content-security-policy']).toBe(policy);
    } finally {
      await upstream.close();
    }
  });

  it("adds to a policy without nonces only the toolbar's scripts, socket and data: images", async () => {
    const policy = "default-src 'none'; script-src https://cdn.example; connect-src https://api.example; style-src 'self'";
    const upstream = await startUpstream({ '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': policy }).end(PAGE) });
    try {
      const { proxy } = await start(upstream.url);
      const page = await request(`${proxy.url}/`, NAVIGATION);
      const origin = proxy.url;
      expect(page.headers['content-security-policy']).toBe(
        `default-src 'none'; script-src https://cdn.example ${origin}/__agentbar/; connect-src https://api.example ${origin.replace('http', 'ws')}/__agentbar/ws; style-src 'self'; img-src data:`,
      );
      expect(page.body).toContain(TAGS);
    } finally {
      await upstream.close();
    }
  });
});
