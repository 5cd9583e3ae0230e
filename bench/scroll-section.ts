/**
 * Section 13 (key `scroll`): the longest main-thread task while the developer wheels up through a
 * 2,000-message chat, earlier messages loading above as they go (MessageList's window). A long
 * task over 50 ms is a hitch the user feels; the figure is reported against that target, never
 * asserted.
 */
import type { BenchConfig } from './config.ts';
import { sleep } from './clock.ts';
import { atMost, judge, type Section } from './report.ts';
import { spawnBenchServer } from './server-handle.ts';
import { HOST_TAG, PREFS_KEY, RENDER_WINDOW, TOOLBAR_BUNDLE } from './browser.ts';
import { access } from 'node:fs/promises';

const LONG_TASK_TARGET_MS = 50;

export interface ScrollCost {
  historyMessages: number;
  /** Messages in the page when the wheel stopped (the window grew from its first RENDER_WINDOW). */
  renderedAtEnd: number;
  wheelSteps: number;
  /** Every long task (> 50 ms, Chromium's own threshold) while wheeling up, in ms. */
  longTasks: number[];
  longestTaskMs: number;
  /** The longest time between two animation frames while wheeling up (ms): a hitch shows here too. */
  longestFrameMs: number;
}

/** In the page: collects long tasks and the longest frame from now on. A string: tsx's helpers do not exist there. */
const LONG_TASK_SCRIPT = `(() => {
  const bench = { tasks: [], longestFrame: 0 };
  window.__scrollBench = bench;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.tasks.push(e.duration); }).observe({ type: 'longtask' });
  let last = 0;
  const frame = (t) => {
    if (last) bench.longestFrame = Math.max(bench.longestFrame, t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

const countMessages = `document.querySelector(${JSON.stringify(HOST_TAG)}).shadowRoot.querySelectorAll('.ab-msg').length`;

/**
 * @example const cost = await measureScroll(config, console.error);
 */
export async function measureScroll(config: BenchConfig, progress: (line: string) => void): Promise<ScrollCost | { skipped: string }> {
  try {
    await access(TOOLBAR_BUNDLE);
  } catch {
    return { skipped: 'toolbar not built (dist/toolbar.js missing: npm run build)' };
  }
  const { chromium } = await import('@playwright/test');
  const historyMessages = config.smoke ? 400 : config.browser.historyMessages;
  const wheelSteps = config.smoke ? 60 : 300;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] }).catch(() => chromium.launch());
  const server = await spawnBenchServer({ perMessageDeflate: true, seedMessages: historyMessages });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(([key]) => localStorage.setItem(key!, JSON.stringify({ open: true, width: 420, height: 760 })), [PREFS_KEY]);
    await page.goto(`${server.httpUrl}/?token=${encodeURIComponent(server.token)}`);
    await page.waitForFunction(`(document.querySelector(${JSON.stringify(HOST_TAG)})?.shadowRoot?.querySelectorAll('.ab-msg').length ?? 0) >= ${RENDER_WINDOW}`, undefined, { timeout: 60_000 });
    await sleep(1_000);
    const [x, y] = (await page.evaluate(
      `(() => { const r = document.querySelector(${JSON.stringify(HOST_TAG)}).shadowRoot.querySelector('.ab-log').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
    )) as [number, number];
    await page.mouse.move(x, y);
    await page.evaluate(LONG_TASK_SCRIPT);
    // A brisk scroll up: 300 px every 50 ms, each loading earlier messages when near the top.
    for (let i = 0; i < wheelSteps; i++) {
      if (i % 50 === 0) progress(`scroll: wheel step ${i + 1} of ${wheelSteps}`);
      await page.mouse.wheel(0, -300);
      await sleep(50);
    }
    await sleep(500);
    const { tasks: longTasks, longestFrame } = (await page.evaluate('window.__scrollBench')) as { tasks: number[]; longestFrame: number };
    const renderedAtEnd = (await page.evaluate(countMessages)) as number;
    return { historyMessages, renderedAtEnd, wheelSteps, longTasks, longestTaskMs: Math.max(0, ...longTasks), longestFrameMs: longestFrame };
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * @example scrollSection(await measureScroll(config, progress))
 */
export function scrollSection(cost: ScrollCost | { skipped: string }): Section {
  const title = '13. Scrolling up a long chat';
  if ('skipped' in cost) return { key: 'scroll', title, columns: [], rows: [], notes: [], data: null, skipped: cost.skipped };
  const target = atMost(LONG_TASK_TARGET_MS, ' ms');
  const longest = Math.round(cost.longestTaskMs);
  return {
    key: 'scroll',
    title,
    columns: ['figure', 'value', 'target', ''],
    rows: [
      // Chromium reports only tasks over 50 ms: with none, the longest is under the target.
      [`longest task while wheeling up a ${cost.historyMessages}-message chat (ms)`, cost.longTasks.length > 0 ? longest : '< 50', target.text, judge(longest, target)],
      ['long tasks (> 50 ms)', cost.longTasks.length, '', ''],
      ['longest time between two frames (ms)', Math.round(cost.longestFrameMs), '', ''],
      ['messages in the page at the end', cost.renderedAtEnd, '', ''],
    ],
    notes: [
      `Chromium, the panel 420×760 px, ${cost.wheelSteps} wheel steps of 300 px up, one every 50 ms, from the end of the chat; earlier messages load above as the list nears the top of those shown. Long tasks from PerformanceObserver('longtask'), which reports none under 50 ms.`,
    ],
    data: cost,
  };
}
