/**
 * `agentbar proxy` in front of real dev servers installed from the registry (Vite, webpack-dev-server,
 * Next.js): the toolbar appears in the app's page, and an edit of the app's source reaches the
 * page by hot update through the proxy's WebSocket passage, without a reload: the page's state, the
 * open panel and the draft typed in it all survive.
 *
 * The apps are kept under ~/.cache/agentbar-real-apps (see dev-app-cache.ts); the first run needs
 * the npm registry or a warm npm cache. Run alone:
 * `npx playwright test --project real-apps e2e/real-apps/proxy-hmr.spec.ts --workers=1`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test as base } from '@playwright/test';
import { DemoServer } from '../demo-server.ts';
import { Toolbar } from '../toolbar-page.ts';
import { ChildProcesses } from './child-processes.ts';
import { prepareDevServerApp } from './dev-app-cache.ts';
import { DEV_SERVER_APPS, FIRST_GREETING } from './dev-server-apps.ts';
import { startDevServer } from './start-dev-server.ts';

const test = base.extend<{ processes: ChildProcesses }>({
  // Everything a test starts (npm, the dev server) is stopped after it, passed or failed.
  processes: async ({}, use) => {
    const processes = new ChildProcesses();
    await use(processes);
    await processes.stopAll();
  },
});

const DRAFT = 'Make the greeting friendlier';
const EDITED = 'Hello, edited while the toolbar stayed open';

/** Only the page's own servers on this machine: anything else would be the network. */
const isLocal = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';

for (const app of DEV_SERVER_APPS) {
  test(`${app.name}: the toolbar appears through agentbar proxy and keeps its draft across a hot update`, async ({ page, processes }) => {
    const dir = await prepareDevServerApp(app, processes);
    const dev = await startDevServer(app, dir, processes);
    const agentbar = await DemoServer.start({ args: ['--proxy', dev.url, '--proxy-port', '0'] });
    try {
      await page.route((url) => !isLocal(url), (route) => route.abort());
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      let signIn: string | undefined;
      await expect.poll(() => (signIn = /Your app:\s+(\S+)/.exec(agentbar.log)?.[1])).toBeTruthy();
      const proxyOrigin = new URL(signIn!).origin;

      const started = Date.now();
      await page.goto(signIn!);
      await expect(page).toHaveURL(`${proxyOrigin}/`);
      // The first compile of a dev server (Next's above all) answers the first page slowly.
      await expect(page.locator('#greeting')).toHaveText(FIRST_GREETING, { timeout: 45_000 });
      test.info().annotations.push({ type: 'first page', description: `${Date.now() - started} ms` });

      const toolbar = new Toolbar(page, agentbar);
      await toolbar.open();
      await toolbar.composer.fill(DRAFT);
      await page.evaluate(() => Object.assign(window, { agentbarBeforeEdit: true }));

      const edited = Date.now();
      await writeFile(path.join(dir, app.greetingFile), app.renderGreeting(EDITED));
      await expect(page.locator('#greeting')).toHaveText(EDITED, { timeout: 30_000 });
      test.info().annotations.push({ type: 'hot update', description: `${Date.now() - edited} ms` });

      // A reload would have dropped the mark, closed the panel and emptied the composer.
      expect(await page.evaluate(() => 'agentbarBeforeEdit' in window)).toBe(true);
      await expect(toolbar.panel).toBeVisible();
      await expect(toolbar.composer).toHaveValue(DRAFT);
      await expect(toolbar.status).toHaveText('Connected');
      // The dev server's hot-update socket went through the proxy, as the toolbar's did.
      expect(sockets.length).toBeGreaterThanOrEqual(2);
      for (const socket of sockets) expect(new URL(socket).host).toBe(new URL(proxyOrigin).host);
    } finally {
      await agentbar.dispose();
    }
  });
}
