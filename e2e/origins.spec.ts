/**
 * A page the server does not accept by default: an https dev server on localhost (Vite with a
 * certificate, for one). The toolbar names the option that admits it, and with that option the page
 * connects. The page is really served over TLS: a page faked by the browser's router would not
 * count as local, and the browser would refuse it the agent server's script for that reason instead.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';

const TLS_DIR = path.join(import.meta.dirname, '..', 'test-support', 'tls');

test.use({ ignoreHTTPSErrors: true });

/** The developer's https dev server: one page carrying the toolbar tag of `agent()`. */
async function serveHttpsApp(agent: () => DemoServer): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer(
    { key: readFileSync(path.join(TLS_DIR, 'localhost-key.pem')), cert: readFileSync(path.join(TLS_DIR, 'localhost-cert.pem')) },
    (_req, res) => {
      const { httpUrl, wsUrl, token } = agent();
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>App</title><h1>My https app</h1><script src="${httpUrl}/toolbar.js" data-url="${wsUrl}" data-token="${token}"></script>`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('names --allow-origin with the page origin when the server refuses an https page, and connects once it is given', async ({ page, server }) => {
  let agent = server;
  const app = await serveHttpsApp(() => agent);
  try {
    await page.goto(`${app.origin}/`);
    const toolbar = new Toolbar(page, server);
    await toolbar.launcher.click();
    await expect(toolbar.status).toHaveText('Offline', { timeout: 30_000 });
    await expect(toolbar.panel.locator('.ab-hint.ab-error')).toHaveText(
      `The agent server is running but refused this page: it accepts pages from ${app.origin} only when started with --allow-origin ${app.origin}. If it was, this page's token is from an earlier start: reload the page.`,
      { timeout: 30_000 },
    );
    // The server's log gives the same advice to whoever reads its terminal.
    await expect
      .poll(() => server.log)
      .toContain(`Refused a WebSocket: Origin not allowed (origin ${app.origin}). If that page is yours, start the server with --allow-origin ${app.origin}`);

    agent = await DemoServer.start({ args: ['--allow-origin', app.origin] });
    try {
      await page.reload();
      const admitted = new Toolbar(page, agent);
      await admitted.open();
      await expect(await admitted.ask('help')).toContainText('demo');
    } finally {
      await agent.dispose();
    }
  } finally {
    await app.close();
  }
});
