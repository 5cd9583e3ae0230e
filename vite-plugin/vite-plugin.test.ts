import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import agentbar, { readConnection, renderTags } from './index.mjs';

describe('agentbar/vite', () => {
  let dir: string;
  let vite: ViteDevServer | null = null;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agentbar-vite-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>App</title></head><body><h1>App</h1></body></html>');
  });
  afterEach(async () => {
    await vite?.close();
    vite = null;
    rmSync(dir, { recursive: true, force: true });
  });

  async function fetchPage(): Promise<string> {
    return (await fetchResponse()).text();
  }

  async function fetchResponse(): Promise<Response> {
    vite = await createServer({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', ws: false },
      plugins: [agentbar({ connectionFile: path.join(dir, 'server.json') })],
    });
    await vite.listen();
    const address = vite.httpServer!.address() as { port: number };
    return fetch(`http://127.0.0.1:${address.port}/`, { headers: { accept: 'text/html' } });
  }

  it('injects the toolbar with the running server’s address and token', async () => {
    writeFileSync(path.join(dir, 'server.json'), JSON.stringify({ url: 'ws://127.0.0.1:4999/ws', http: 'http://127.0.0.1:4999', token: 'tok-</script>-123456789', pid: 1 }));
    const html = await fetchPage();
    expect(html).toContain('<script src="http://127.0.0.1:4999/toolbar.js" defer');
    expect(html).toContain('window.__AGENTBAR__ = {"url":"ws://127.0.0.1:4999/ws","token":"tok-\\u003c/script>-123456789"}');
    expect(html).not.toContain('tok-</script>');
  });

  it('forbids framing of the pages that hold the token', async () => {
    writeFileSync(path.join(dir, 'server.json'), JSON.stringify({ url: 'ws://127.0.0.1:4999/ws', http: 'http://127.0.0.1:4999', token: 't'.repeat(20), pid: 1 }));
    const res = await fetchResponse();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
  });

  it('serves the page unchanged, with a warning, when no agentbar server runs', async () => {
    const html = await fetchPage();
    expect(html).toContain('<h1>App</h1>');
    expect(html).not.toContain('__AGENTBAR__');
  });

  it('explains a missing or broken connection file', () => {
    expect(readConnection(path.join(dir, 'nope.json'))).toMatchObject({ ok: false, reason: expect.stringContaining('agentbar serve') });
    writeFileSync(path.join(dir, 'bad.json'), '{"url":1}');
    expect(readConnection(path.join(dir, 'bad.json'))).toMatchObject({ ok: false, reason: expect.stringContaining('not a valid') });
  });

  async function fetchModule(url: string, options: { sourceAttributes?: boolean } = {}): Promise<string> {
    vite = await createServer({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', ws: false },
      // The classic runtime needs no react package in the temporary app.
      oxc: { jsx: { runtime: 'classic' } },
      plugins: [agentbar({ connectionFile: path.join(dir, 'server.json'), ...options })],
    });
    await vite.listen();
    const address = vite.httpServer!.address() as { port: number };
    return (await fetch(`http://127.0.0.1:${address.port}${url}`)).text();
  }

  it('marks the elements of a served .tsx module with their component and source line', async () => {
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'Greeting.tsx'), 'export function Greeting({ name }: { name: string }) {\n  return (\n    <section>\n      <h1 title="hi">Hello {name}</h1>\n    </section>\n  );\n}\n');
    const js = await fetchModule('/src/Greeting.tsx');
    expect(js).toContain('"data-agentbar-source": "src/Greeting.tsx:3:5"');
    expect(js).toContain('"data-agentbar-source": "src/Greeting.tsx:4:7"');
    expect(js).toContain('"data-agentbar-component": "Greeting"');
    expect(js).toContain('sourceMappingURL=data:application/json');
  });

  it('leaves modules as written with sourceAttributes: false', async () => {
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src', 'A.tsx'), 'export const A = () => <p>a</p>;\n');
    const js = await fetchModule('/src/A.tsx', { sourceAttributes: false });
    expect(js).toContain('createElement("p"');
    expect(js).not.toContain('data-agentbar');
  });

  it('points the script at the server’s own toolbar bundle', () => {
    const tags = renderTags({ url: 'ws://127.0.0.1:1/ws', http: 'http://127.0.0.1:1/', token: 't' });
    expect(tags[1]).toMatchObject({ tag: 'script', attrs: { src: 'http://127.0.0.1:1/toolbar.js' } });
  });
});
