/**
 * Section 12 (key `launcher`): what agentbar adds to a host page's load before the panel opens.
 * A plain page is loaded with and without what the Vite plugin injects (the page capture inline,
 * the toolbar's script tag); the figures are the main thread's busy time up to the load event (Chromium's TaskDuration,
 * the median of the passes, minus the plain page's) and the bytes of `toolbar.js`. The panel's code
 * (`panel.js`) arrives after the load, on idle: its bytes and main-thread time are shown apart.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { BenchConfig } from './config.ts';
import { atMost, judge, type Section } from './report.ts';
import { percentile } from './stats.ts';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const BODY = `<h1>App</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(200)}`;

export interface LauncherCost {
  launcherBytes: number;
  launcherGzip: number;
  panelGzip: number;
  /** Main-thread ms the launcher adds before the page's load event (median). */
  addedAtLoadMs: number;
  /** Main-thread ms the panel's code takes when it arrives on idle (median). */
  panelIdleMs: number;
  passes: number;
}

/**
 * @example const cost = await measureLauncher(config, console.error);
 */
export async function measureLauncher(config: BenchConfig, progress: (line: string) => void): Promise<LauncherCost | { skipped: string }> {
  let launcher: Buffer, panel: Buffer, capture: string;
  try {
    [launcher, panel, capture] = await Promise.all([readFile(path.join(DIST, 'toolbar.js')), readFile(path.join(DIST, 'panel.js')), readFile(path.join(DIST, 'page-capture.js'), 'utf8')]);
  } catch {
    return { skipped: 'toolbar not built (dist/toolbar.js or dist/panel.js missing: npm run build)' };
  }
  const { chromium } = await import('@playwright/test');
  const server = http.createServer((req, res) => {
    const script = req.url === '/toolbar.js' ? launcher : req.url === '/panel.js' ? panel : null;
    if (script) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    // Port 9 (discard): the socket fails at once, as with no server; the load is what is measured.
    // As the Vite plugin injects it: the page capture inline first, then the config and the launcher.
    const tags = req.url === '/with' ? `<script>${capture}</script><script>window.__AGENTBAR__ = { url: 'ws://127.0.0.1:9/ws', token: 't' };</script><script src="/toolbar.js" defer></script>` : '';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>App</title><body>${BODY}${tags}</body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] }).catch(() => chromium.launch());
  const passes = config.smoke ? 3 : 9;
  const bare: number[] = [], withLauncher: number[] = [], idle: number[] = [];
  try {
    for (let i = 0; i < passes; i++) {
      progress(`launcher: pass ${i + 1} of ${passes}`);
      for (const kind of ['bare', 'with'] as const) {
        const page = await browser.newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')!.value * 1000;
        // Read at the load event itself, before the idle callback that loads the panel.
        await page.goto(`${origin}/${kind}`, { waitUntil: 'load' });
        const atLoad = await busy();
        (kind === 'bare' ? bare : withLauncher).push(atLoad);
        if (kind === 'with') {
          await page.waitForFunction(() => (document.querySelector('agentbar-toolbar')?.shadowRoot?.querySelectorAll('style').length ?? 0) >= 2);
          idle.push((await busy()) - atLoad);
        }
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const median = (xs: number[]) => percentile(xs, 50);
  return {
    launcherBytes: launcher.length,
    launcherGzip: zlib.gzipSync(launcher, { level: 9 }).length,
    panelGzip: zlib.gzipSync(panel, { level: 9 }).length,
    addedAtLoadMs: Math.max(0, median(withLauncher) - median(bare)),
    panelIdleMs: median(idle),
    passes,
  };
}

const LAUNCHER_GZIP_KB = 15;
const ADDED_AT_LOAD_MS = 10;

/**
 * @example launcherSection(await measureLauncher(config, progress))
 */
export function launcherSection(cost: LauncherCost | { skipped: string }): Section {
  const title = '12. What the launcher adds to a page load';
  if ('skipped' in cost) return { key: 'launcher', title, columns: [], rows: [], notes: [], data: null, skipped: cost.skipped };
  const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
  const onLoad = atMost(ADDED_AT_LOAD_MS, ' ms');
  const size = atMost(LAUNCHER_GZIP_KB, ' KB');
  return {
    key: 'launcher',
    title,
    columns: ['figure', 'value', 'target', ''],
    rows: [
      ['toolbar.js, gzipped (KB)', kb(cost.launcherGzip), size.text, judge(kb(cost.launcherGzip), size)],
      ['toolbar.js, as sent (KB)', kb(cost.launcherBytes), '', ''],
      ['main thread added before the load event (ms, median)', Math.round(cost.addedAtLoadMs * 10) / 10, onLoad.text, judge(cost.addedAtLoadMs, onLoad)],
      ['panel.js on idle, after the load: gzipped (KB)', kb(cost.panelGzip), '', ''],
      ['panel.js on idle: main thread (ms, median)', Math.round(cost.panelIdleMs * 10) / 10, '', ''],
    ],
    notes: [
      `Chromium, a plain 200-paragraph page with and without what the Vite plugin injects (page capture inline, toolbar.js), ${cost.passes} passes each; main-thread time is Chromium's TaskDuration at the load event, minus the plain page's.`,
      'The panel (Preact app, store, sync client) loads after the load event on idle, or at once on a click or when it was open before a reload.',
    ],
    data: cost,
  };
}
