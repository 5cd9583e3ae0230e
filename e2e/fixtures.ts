/**
 * Playwright fixtures for the browser tests.
 *
 * - `server`: the real `agentbar serve` (demo agents) in a child process, ONE PER TEST FILE: the
 *   worker keeps the current file's server and replaces it when the next file starts (files run
 *   one after another in a worker). `test.use({ paceMs })` sets AGENTBAR_DEMO_PACE_MS, and
 *   `test.use({ gate: true })` holds the long reply and the reasoning until `server.openGate()`;
 *   a file that changes either mid-way gets a new server from there on. After each test any run still going is
 *   stopped, and a server a test left stopped is started again, so tests never leak into each other.
 * - `toolbar`: the demo page, seen through the toolbar's accessible names.
 *
 * The toolbar bundle (dist/toolbar.js) must be built first: `npm test` runs `npm run build`.
 */
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { DemoServer } from './demo-server.ts';
import { Toolbar } from './toolbar-page.ts';
import { stopAnyRun } from './wire-client.ts';

export { expect, Toolbar };

interface ServerPool {
  /** The server of this test file (and pace), started on first use. */
  acquire(file: string, paceMs: number, gate: boolean): Promise<DemoServer>;
}

/** Saves a screenshot of the page as a test artifact (test-results/…/NAME.png) and attaches it. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export const test = base.extend<{ paceMs: number; gate: boolean; server: DemoServer; toolbar: Toolbar }, { serverPool: ServerPool }>({
  // One millisecond between streamed pieces: replies stream, and end quickly.
  paceMs: [1, { option: true }],
  gate: [false, { option: true }],

  serverPool: [
    async ({}, use) => {
      const held: { key: string; server: DemoServer | null } = { key: '', server: null };
      await use({
        async acquire(file, paceMs, gate) {
          const key = `${file}\n${paceMs}\n${gate}`;
          if (held.server && held.key === key) return held.server;
          const previous = held.server;
          held.server = null;
          await previous?.dispose();
          held.server = await DemoServer.start({ paceMs, gate });
          held.key = key;
          return held.server;
        },
      });
      await held.server?.dispose();
    },
    { scope: 'worker' },
  ],

  server: async ({ serverPool, paceMs, gate }, use, testInfo) => {
    const server = await serverPool.acquire(testInfo.file, paceMs, gate);
    await use(server);
    if (!server.running) await server.restart();
    if (gate) server.closeGate();
    await stopAnyRun(server);
  },

  toolbar: async ({ page, server }, use) => {
    await use(new Toolbar(page, server));
  },
});
