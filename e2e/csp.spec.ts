/**
 * A developer's app with a strict, nonce-based Content-Security-Policy: the toolbar tag carries
 * the nonce, and the scripts the toolbar adds later (the highlighter's grammars) get it too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, Toolbar } from './fixtures.ts';

const NONCE = 'c2VjcmV0LW5vbmNl';

/** The developer's dev server: one page, served from loopback like a real one, with a strict CSP. */
async function serveApp(agent: { httpUrl: string; wsUrl: string; token: string }): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'unsafe-inline'; img-src data:; connect-src ${agent.httpUrl} ${agent.wsUrl}`,
    });
    res.end(`<!doctype html><title>App</title><main><h1 id="page-title">My app</h1></main>
<script nonce="${NONCE}" src="${agent.httpUrl}/toolbar.js" data-url="${agent.wsUrl}" data-token="${agent.token}"></script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('works and highlights code on a page whose CSP admits scripts by nonce only', async ({ page, server }) => {
  const app = await serveApp(server);
  try {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(app.url);
    const toolbar = new Toolbar(page, server);
    await toolbar.open();
    const reply = await toolbar.ask('show me some markdown');
    await expect(reply.locator('.ab-code .ab-hl-keyword').first()).toHaveText('export');
    expect(violations).toEqual([]);
  } finally {
    await app.close();
  }
});
