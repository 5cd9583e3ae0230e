/**
 * Proof on real apps: for each Vite template, an app made with `npm create vite` and agentbar
 * installed from its packed tarball, as a user would. A button of the test's own Greeting, picked
 * with **Pick elements**, reaches the agent with the exact chain: Greeting at its `<button`, then
 * the App at its element that holds the Greeting. Read from the server over the wire.
 *
 * The apps are kept under ~/.cache/agentbar-real-apps (see app-cache.ts); the first run
 * needs the npm registry or a warm npm cache. Run alone: `npx playwright test --project real-apps`.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { expect, test as base } from '../fixtures.ts';
import { readUserMessages } from '../wire-client.ts';
import { packAgentbar, prepareApp, type PackedAgentbar } from './app-cache.ts';
import { writeTestFiles } from './app-edits.ts';
import { ChildProcesses } from './child-processes.ts';
import { TEMPLATES } from './create-vite-templates.ts';
import { startViteDevServer } from './vite-dev-server.ts';

const test = base.extend<{ processes: ChildProcesses }, { packed: PackedAgentbar }>({
  packed: [
    async ({}, use) => {
      const processes = new ChildProcesses();
      try {
        const packed = await packAgentbar(processes);
        await use(packed);
        await rm(path.dirname(packed.tarball), { recursive: true, force: true });
      } finally {
        await processes.stopAll();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  // Everything a test starts (npm, the dev server) is stopped after it, passed or failed.
  processes: async ({}, use) => {
    const processes = new ChildProcesses();
    await use(processes);
    await processes.stopAll();
  },
});

/** Only the page's own servers on this machine: anything else would be the network. */
const isLocal = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';

for (const template of TEMPLATES) {
  test(`${template.template}: a picked element reaches the agent with its component chain`, async ({ page, server, toolbar, processes, packed }) => {
    const app = await prepareApp(template, packed, processes);
    const host = await writeTestFiles(app, template, server.dataDir);
    const vite = await startViteDevServer(app.dir, processes);
    await page.route((url) => !isLocal(url), (route) => route.abort());

    await page.goto(vite.url);
    const greet = page.locator('#greet');
    const { file, line, column } = template.greeting;
    // The plugin marked the element (a failure here is the plugin's, not the toolbar's).
    await expect(greet).toHaveAttribute('data-agentbar-source', `${file}:${line}:${column}`);

    await toolbar.open();
    await toolbar.newChat();
    await toolbar.pickButton.click();
    await greet.click();
    await expect(toolbar.panel.getByRole('button', { name: 'Remove button#greet' })).toBeVisible();
    await page.keyboard.press('Escape');
    await toolbar.send('Where is this button written?');

    await expect.poll(async () => (await readUserMessages(server)).length).toBe(1);
    const [message] = await readUserMessages(server);
    const [picked] = message!.metadata.selectedElements;
    expect(picked).toMatchObject({ tagName: 'button', selector: '#greet', textContent: 'Hello' });
    expect(picked!.components).toEqual([
      { name: 'Greeting', file, line, column },
      { name: template.app.component, file: template.app.file, line: host.line, column: host.column },
    ]);
    // The marks are told once, in the chain, not again among the element's attributes.
    expect(Object.keys(picked!.attributes).filter((name) => name.startsWith('data-agentbar'))).toEqual([]);
    // The plugin found its server and every parser it needs: it warned of nothing.
    expect(vite.output()).not.toContain('[agentbar]');
  });
}
