/**
 * `agentbar serve --proxy URL` in front of a plain dev server: the toolbar appears in the proxied
 * page once the browser opened the sign-in address the command printed, talks to the agent over
 * the proxy's own relay (the page never holds the token), and works under a strict nonce-based
 * Content-Security-Policy, which the proxy amends only as far as the toolbar needs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { DemoServer } from './demo-server.ts';
import { Toolbar } from './toolbar-page.ts';

const NONCE = 'cHJveHktbm9uY2U';

let app: Server;
let server: DemoServer;

/** The address the command printed after "Your app:", once it has. */
async function readSignInAddress(demo: DemoServer): Promise<string> {
  let found: string | undefined;
  await expect.poll(() => (found = /Your app:\s+(\S+)/.exec(demo.log)?.[1])).toBeTruthy();
  return found!;
}

test.beforeAll(async () => {
  app = createServer((req, res) => {
    const strict = req.url === '/strict';
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...(strict ? { 'Content-Security-Policy': `default-src 'self'; script-src 'nonce-${NONCE}' 'strict-dynamic'; style-src 'unsafe-inline'` } : {}),
    });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>My app</title></head>
<body><main><h1 id="page-title">My app</h1></main><script nonce="${NONCE}">document.title += ' ready';</script></body></html>`);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const upstream = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  server = await DemoServer.start({ args: ['--proxy', upstream, '--proxy-port', '0'] });
});

test.afterAll(async () => {
  await server?.dispose();
  await new Promise<void>((resolve) => app?.close(() => resolve()));
});

test('a signed-out browser gets a sign-in link; after the sign-in the toolbar answers, also under a strict nonce policy, and no page holds the token', async ({ page }) => {
  const signIn = await readSignInAddress(server);
  const proxyOrigin = new URL(signIn).origin;
  await page.goto(`${proxyOrigin}/strict`);
  await expect(page.getByRole('link', { name: 'agentbar: sign in' })).toBeVisible();

  await page.goto(signIn);
  await expect(page).toHaveURL(`${proxyOrigin}/`);
  await expect(page).toHaveTitle('My app ready');
  const toolbar = new Toolbar(page, server);
  await toolbar.open();
  await expect(await toolbar.ask('hello')).toBeVisible();
  expect(await (await page.request.get(`${proxyOrigin}/`)).text()).not.toContain(server.token);

  // The key stays in the proxy origin's storage: another page of the app needs no new sign-in.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${proxyOrigin}/strict`);
  await expect(page).toHaveTitle('My app ready');
  await toolbar.open();
  await expect(await toolbar.ask('hello again')).toBeVisible();
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});
