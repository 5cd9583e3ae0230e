/**
 * What the page says, through the page tools over MCP: the page logs, throws, rejects and fails
 * requests, and `get_console_messages`, `get_page_errors` and `get_network_failures` return it.
 * On the demo page and under the Vite plugin the capture script runs first in the page, so what
 * the app did before the (deferred) toolbar loaded is there too; a page that loads the toolbar with
 * a plain script tag is captured from the toolbar's start, and the answer says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createServer as createViteServer } from 'vite';
import agentbar from '../vite-plugin/index.mjs';
import type { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';
import { callPageTool } from './page-tools.ts';

/** What the app of each test does: logs, throws later, rejects, and asks for a missing and a refused URL. */
const APP_SCRIPT = `
  console.log('app started', { user: 'ada', items: [1, 2] });
  console.warn('%s is deprecated', 'oldApi');
  fetch('/api/missing.json?token=s3cr3t').then((r) => console.info('status', r.status));
  fetch('http://127.0.0.1:9/refused').catch((e) => console.debug('refused:', e.name));
  setTimeout(() => { throw new Error('boom from the app'); });
  Promise.reject(new TypeError('nobody handles this'));
  void 0;
`;

const texts = (output: Record<string, unknown>, key: string, field: string) => ((output[key] as Record<string, string>[] | undefined) ?? []).map((e) => e[field]);

/** Answers from the page tools once the page has said it all (the fetches and the timer end later). */
async function readPageLog(server: DemoServer) {
  await expect.poll(async () => texts((await callPageTool(server, 'get_console_messages')).output, 'messages', 'text')).toEqual(expect.arrayContaining(['status 404', 'refused: TypeError']));
  await expect.poll(async () => texts((await callPageTool(server, 'get_page_errors')).output, 'errors', 'message')).toEqual(expect.arrayContaining(['Error: boom from the app', 'TypeError: nobody handles this']));
  return {
    console: (await callPageTool(server, 'get_console_messages')).output,
    errors: (await callPageTool(server, 'get_page_errors')).output,
    network: (await callPageTool(server, 'get_network_failures')).output,
  };
}

/** `where`: the page URL the uncaught error was thrown in, when it came from the page's own script. */
function expectAppSaid(log: Awaited<ReturnType<typeof readPageLog>>, capturing: RegExp, where?: string): void {
  expect(log.console).toMatchObject({ capturing: expect.stringMatching(capturing), dropped: 0 });
  expect(log.console.messages).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ level: 'log', text: "app started {user: 'ada', items: [1, 2]}", time: expect.stringMatching(/^\d{4}-/) }),
      expect.objectContaining({ level: 'warn', text: 'oldApi is deprecated' }),
      expect.objectContaining({ level: 'info', text: 'status 404' }),
      expect.objectContaining({ level: 'debug', text: 'refused: TypeError' }),
    ]),
  );
  expect(log.errors.errors).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        kind: 'error',
        message: 'Error: boom from the app',
        stack: expect.stringContaining('boom from the app'),
        ...(where ? { source: { file: where, line: expect.any(Number), column: expect.any(Number) } } : {}),
      }),
      expect.objectContaining({ kind: 'unhandledrejection', message: 'TypeError: nobody handles this' }),
    ]),
  );
  expect(log.network).toMatchObject({
    failures: expect.arrayContaining([
      expect.objectContaining({ api: 'fetch', method: 'GET', url: expect.stringMatching(/\/api\/missing\.json\?token=\[redacted\]$/), status: 404 }),
      expect.objectContaining({ api: 'fetch', url: 'http://127.0.0.1:9/refused', error: expect.stringMatching(/^TypeError: /) }),
    ]),
  });
  expect(JSON.stringify(log)).not.toContain('s3cr3t');
}

test('the demo page: what the page logs, throws and fails reaches the page tools over MCP', async ({ page, server, toolbar }) => {
  await toolbar.start();
  await page.evaluate(APP_SCRIPT);
  expectAppSaid(await readPageLog(server), /^since the page started loading/);
});

test('under the Vite plugin, what the app said before the toolbar loaded is there too', async ({ page, server }) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'agentbar-vite-app-'));
  // The app's own script runs in <head>, long before the deferred toolbar.
  await writeFile(path.join(root, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>App</title><script>${APP_SCRIPT}</script></head><body><h1>App</h1></body></html>`);
  const vite = await createViteServer({
    root,
    configFile: false,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', ws: false },
    plugins: [
      agentbar({ dataDir: server.dataDir }),
      // The app's API, which has no such file (Vite would answer index.html to it).
      { name: 'api', configureServer: (dev) => void dev.middlewares.use('/api', (_req, res) => res.writeHead(404).end()) },
    ],
  });
  try {
    await vite.listen();
    const { port } = vite.httpServer!.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await new Toolbar(page, server).open();
    expectAppSaid(await readPageLog(server), /^since the page started loading/, `http://127.0.0.1:${port}/`);
  } finally {
    await vite.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('with a plain script tag, the toolbar captures from its own start and says so', async ({ page, server }) => {
  const app: Server = createHttpServer((req, res) => {
    if (req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>App</title><h1>App</h1>
<script>console.log('before the toolbar: not captured')</script>
<script src="${server.httpUrl}/toolbar.js" data-url="${server.wsUrl}" data-token="${server.token}"></script>`);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
    await new Toolbar(page, server).open();
    await page.evaluate(APP_SCRIPT);
    const log = await readPageLog(server);
    expectAppSaid(log, /^since the toolbar loaded at .*the page has no agentbar capture script/);
    expect(JSON.stringify(log.console)).not.toContain('before the toolbar');
  } finally {
    await new Promise<void>((resolve) => app.close(() => resolve()));
  }
});

test('the accessibility tree and computed styles of the demo page, as a real browser computes them', async ({ page, server, toolbar }) => {
  await toolbar.start();
  await page.getByRole('textbox', { name: 'Customer' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Customer' }).focus();
  const form = await callPageTool(server, 'get_accessibility_tree', { selector: 'form' });
  expect(form).toEqual({
    isError: false,
    output: {
      root: 'form',
      matchCount: 1,
      nodes: 6,
      truncated: false,
      tree: {
        role: 'form',
        children: [
          'Customer',
          { role: 'textbox', name: 'Customer', value: 'Ada', focused: true },
          'Status',
          { role: 'combobox', name: 'Status', value: 'Any' },
          { role: 'button', name: 'Filter orders' },
        ],
      },
    },
  });
  const whole = await callPageTool(server, 'get_accessibility_tree', { maxNodes: 1000 });
  expect(whole.output).toMatchObject({ root: 'document', truncated: false, tree: { role: 'document', name: 'Acme Orders — agentbar demo' } });
  expect(JSON.stringify(whole.output)).not.toContain('Open agentbar');

  const styles = await callPageTool(server, 'get_computed_styles', { selector: 'button.primary' });
  expect(styles.output).toMatchObject({
    element: { tagName: 'button', box: { width: expect.any(Number), height: expect.any(Number) } },
    matchCount: 1,
    // A flex item (the form is a flex container): blockified, with its flex properties.
    styles: { display: 'block', 'flex-basis': 'auto', 'background-color': 'rgb(67, 56, 202)', color: 'rgb(255, 255, 255)', padding: '8px 16px', 'border-radius': '6px', cursor: 'pointer' },
  });
  expect((await callPageTool(server, 'get_computed_styles', { selector: '.cards' })).output).toMatchObject({ styles: { display: 'grid', 'column-gap': '16px' } });
});
