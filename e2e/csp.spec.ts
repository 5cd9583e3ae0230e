/**
 * A developer's app with a strict, nonce-based Content-Security-Policy: the toolbar tag carries
 * the nonce, and the scripts the toolbar adds later (the highlighter's grammars, the page tools'
 * code, the page capture) get it too. Under Trusted Types their URLs come from the toolbar's own
 * policy, `agentbar`; where the page allows only other policies, code shows plain, the page tools
 * answer with what to allow, and the rest works. A policy whose connect-src leaves the agent
 * server out gets a message saying what to add, not an endless "Connecting…".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import type { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';
import { callPageTool } from './page-tools.ts';

const NONCE = 'c2VjcmV0LW5vbmNl';

/**
 * The developer's dev server: one page, served from loopback like a real one, with a strict CSP
 * that admits the agent server in connect-src unless `connectSrc` says otherwise.
 */
async function serveApp(
  agent: { httpUrl: string; wsUrl: string; token: string },
  extraPolicy = '',
  connectSrc = `${agent.httpUrl} ${agent.wsUrl}`,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'unsafe-inline'; img-src data:; connect-src ${connectSrc}${extraPolicy}`,
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

test('runs the page tools, and records the page from the toolbar’s start, with the scripts it loads getting the nonce', async ({ page, server }) => {
  const app = await serveApp(server);
  try {
    await page.goto(app.url);
    await new Toolbar(page, server).open();
    expect(await callPageTool(server, 'get_accessibility_tree', { selector: 'main' })).toMatchObject({
      isError: false,
      output: { root: 'main', tree: { role: 'main', children: [{ role: 'heading', name: 'My app', level: 1 }] } },
    });
    await page.evaluate(() => console.warn('said on a strict page'));
    const { output } = await callPageTool(server, 'get_console_messages', { level: 'warn' });
    expect(output).toMatchObject({ capturing: expect.stringMatching(/^since the toolbar loaded/), messages: [expect.objectContaining({ text: 'said on a strict page' })] });
  } finally {
    await app.close();
  }
});

test('where Trusted Types allow only other policies, the page tools answer with what to allow', async ({ page, server }) => {
  const app = await serveApp(server, "; require-trusted-types-for 'script'; trusted-types app-only");
  try {
    await page.goto(app.url);
    await new Toolbar(page, server).open();
    const answer = await callPageTool(server, 'get_page_info');
    expect(answer.isError).toBe(true);
    expect(answer.output.error).toBe(
      `get_page_info is not available on this page: page-tools.js could not be loaded from ${server.httpUrl}/page-tools.js. ` +
        `If the page has a Content-Security-Policy, its script-src must admit ${server.httpUrl} (or the toolbar's script tag must carry the page's nonce); ` +
        `if it enforces Trusted Types, its trusted-types directive must allow the policy 'agentbar'.`,
    );
  } finally {
    await app.close();
  }
});

test("says what to add when the page's connect-src leaves the agent server out, and stops trying", async ({ page, server }) => {
  const app = await serveApp(server, '', "'self'");
  try {
    await page.clock.install();
    await page.addInitScript(() => {
      const Native = window.WebSocket;
      (window as unknown as { sockets: number }).sockets = 0;
      window.WebSocket = class extends Native {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          (window as unknown as { sockets: number }).sockets++;
        }
      };
    });
    await page.goto(app.url);
    const toolbar = new Toolbar(page, server);
    await toolbar.launcher.click();
    // Closed at the first refusal, not "Offline" after several failed attempts.
    await expect(toolbar.status).toHaveText('Offline');
    const origin = new URL(server.wsUrl).origin;
    const hint = toolbar.panel.locator('.ab-hint.ab-error');
    await expect(hint).toHaveText(`This page's Content-Security-Policy blocks the connection to the agent server: add ${origin} to its connect-src directive, then reload the page.`);
    await toolbar.composer.fill('hello?');
    await expect(toolbar.sendButton).toBeDisabled();
    // Nothing is known of the server's agents: the menu does not claim there are none.
    await expect(toolbar.agentSelect).toHaveText('Agent');
    // A minute later (on the page's clock) it has not tried again: each try logs the token.
    await page.clock.runFor(60_000);
    expect(await page.evaluate(() => (window as unknown as { sockets: number }).sockets)).toBe(1);
  } finally {
    await app.close();
  }
});

test("connects when the page's connect-src admits the socket's address alone", async ({ page, server }) => {
  const app = await serveApp(server, '', server.wsUrl);
  try {
    await page.goto(app.url);
    const toolbar = new Toolbar(page, server);
    await toolbar.open();
    await expect(await toolbar.ask('help')).toContainText('demo');
  } finally {
    await app.close();
  }
});
