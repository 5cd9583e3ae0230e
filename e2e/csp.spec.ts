/**
 * A developer's app with a strict, nonce-based Content-Security-Policy: the toolbar tag carries
 * the nonce, and the scripts the toolbar adds later (the highlighter's grammars) get it too. Under
 * Trusted Types the grammars' URLs come from the toolbar's own policy, `agentbar`; where the page
 * allows only other policies, code shows plain and the rest works.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import type { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';

const NONCE = 'c2VjcmV0LW5vbmNl';

/** The developer's dev server: one page, served from loopback like a real one, with a strict CSP. */
async function serveApp(agent: { httpUrl: string; wsUrl: string; token: string }, extraPolicy = ''): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'unsafe-inline'; img-src data:; connect-src ${agent.httpUrl} ${agent.wsUrl}${extraPolicy}`,
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

/**
 * Opens the toolbar on the app served with `extraPolicy` added to its CSP, asks for the demo's
 * markdown reply (with a TypeScript block), and gives it with the page's errors so far.
 */
async function askOnApp(page: Page, server: DemoServer, extraPolicy: string, run: (reply: Locator, toolbar: Toolbar, errors: string[]) => Promise<void>) {
  const app = await serveApp(server, extraPolicy);
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(app.url);
    const toolbar = new Toolbar(page, server);
    await toolbar.open();
    await run(await toolbar.ask('show me some markdown'), toolbar, errors);
  } finally {
    await app.close();
  }
}

test('works and highlights code on a page whose CSP admits scripts by nonce only', async ({ page, server }) => {
  await askOnApp(page, server, '', async (reply, _toolbar, errors) => {
    await expect(reply.locator('.ab-code .ab-hl-keyword').first()).toHaveText('export');
    expect(errors).toEqual([]);
  });
});

test('highlights code on a page that enforces Trusted Types, through its own policy', async ({ page, server }) => {
  await askOnApp(page, server, "; require-trusted-types-for 'script'", async (reply, _toolbar, errors) => {
    await expect(reply.locator('.ab-code .ab-hl-keyword').first()).toHaveText('export');
    expect(errors).toEqual([]);
  });
});

test('shows code plain, and keeps working, where Trusted Types allow only other policies', async ({ page, server }) => {
  await askOnApp(page, server, "; require-trusted-types-for 'script'; trusted-types app-only", async (reply, toolbar, errors) => {
    await expect(reply.locator('.ab-code pre code')).toContainText('export function debounce');
    expect(await reply.locator('.ab-code [class^="ab-hl-"]').count()).toBe(0);
    // The toolbar goes on: another reply streams and renders too.
    await toolbar.ask('help');
    // The browser reports the refused policy; nothing is thrown at the page.
    expect(errors.filter((e) => e.startsWith('uncaught:'))).toEqual([]);
  });
});
