/**
 * Section 7 hook: append-to-DOM latency and main-thread time per delta in a real Chromium with
 * the built toolbar (dist/toolbar.js) on the server's demo page, over a long active chat.
 * Runs only when the bundle and a Chromium exist; otherwise it says why it skipped.
 */
import { access } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectBenchClient, waitConnected, waitUntil } from './bench-client.ts';
import { sleep } from './clock.ts';
import { BENCH_AGENT_ID } from './bench-agent.ts';
import { maxOf, percentile } from './stats.ts';
import { spawnBenchServer } from './server-handle.ts';
import { planDeltas, type StreamPlan } from './stream-plan.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const TOOLBAR_BUNDLE = path.resolve(HERE, '../dist/toolbar.js');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** The toolbar's localStorage key for its UI prefs (toolbar/store.ts PREFS_KEY): opens the panel. */
export const PREFS_KEY = 'agentbar:toolbar';
export const HOST_TAG = 'agentbar-toolbar';
/** The fewest messages the toolbar renders of a long chat (toolbar/components/MessageList.tsx WINDOW). */
export const RENDER_WINDOW = 60;

export interface BrowserOptions {
  historyMessages: number;
  deltas: number;
  /** Deltas of a plan (one numbered list, code in every item) streamed after the measured reply; 0: none. */
  planDeltas: number;
  /** Wheel steps (100 px each, up through the history) measured at the end; 0: none. */
  wheelSteps: number;
  textLength: number;
  deltaSize: number;
  paceHz: number;
  gateMs: number;
}

export interface BrowserFigures {
  historyMessages: number;
  renderedMessages: number;
  historyRenderMs: number;
  deltas: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** CDP Performance.getMetrics TaskDuration over the stream, per delta. */
  mainThreadMsPerDelta: number;
  /** Parts of it (CDP ScriptDuration, LayoutDuration, RecalcStyleDuration), per delta. */
  scriptMsPerDelta: number;
  layoutMsPerDelta: number;
  styleMsPerDelta: number;
  longTasks: number;
  longTaskMs: number;
  /**
   * Whether the list followed the stream as a user at the end expects: the "Latest" pill never
   * showed and the end of the reply was in view when it finished. A list that stopped following
   * costs less per delta (the growing message is off-screen), so the figures above count only
   * when this holds.
   */
  followed: boolean;
  /**
   * The browser's share: main-thread ms per change when a page script makes the same number of
   * text changes, at the same pace, to a paragraph in the same list (no socket, store or render).
   */
  floorMsPerDelta: number;
  /**
   * The same text changes to a paragraph on an empty page, in the same browser: this Chromium's
   * floor on this machine, which no page can go below.
   */
  blankMsPerDelta: number;
  /**
   * Main-thread ms per delta while a plan streams (one list with code in every item, which stays
   * open to its end); null when none was streamed. Its DOM text is not its source: no latency.
   */
  planMsPerDelta: number | null;
  /** Main-thread ms per wheel step scrolling up through the history (see measureWheel); null when not measured. */
  wheelMsPerStep: number | null;
  /** Main-thread ms per delta of every pass over this history, in run order (one pass: just this one). */
  passes?: number[];
  /** The list's distance from its end when the reply finished (px). */
  endDistance: number;
  /**
   * With BENCH_JS_SPLIT: mean ms per message the page received during the stream, in the socket's
   * handler, and in the handler plus the microtasks after it (the render), from JS_SPLIT_SCRIPT.
   */
  jsSplit?: { handlerMs: number; withRenderMs: number; messages: number };
  chromium: string;
}

export type BrowserResult = { skipped: string } | BrowserFigures;

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * In the page: records (text length, epoch ms) of the streaming message at every DOM mutation,
 * and long tasks. A string, not a function: tsx's transform would add helpers the page lacks.
 */
const OBSERVER_SCRIPT = `(() => {
  const root = document.querySelector(${JSON.stringify(HOST_TAG)}).shadowRoot;
  const records = [];
  const longTasks = [];
  window.__bench = { records, longTasks, pill: false };
  let target = null;
  let md = null;
  let last = -1;
  // The pill is looked for in added elements only: a query over the whole shadow root on every
  // mutation cost about 0.06 ms per delta, which the main-thread figure would charge the toolbar.
  const isPill = (node) => node.nodeType === 1 && (node.matches('.ab-jump') || node.querySelector('.ab-jump') !== null);
  if (root.querySelector('.ab-jump')) window.__bench.pill = true;
  new MutationObserver((mutations) => {
    const now = performance.timeOrigin + performance.now();
    if (!target || !target.isConnected) {
      const busy = root.querySelectorAll('.ab-msg-assistant[aria-busy="true"]');
      target = busy[busy.length - 1] || null;
      md = null;
    }
    if (!window.__bench.pill) {
      for (const m of mutations) for (const node of m.addedNodes) if (isPill(node)) window.__bench.pill = true;
    }
    if (!target) return;
    // The text's element is looked up once it exists, not at every mutation (bench work, not the toolbar's).
    if (!md || !md.isConnected) md = target.querySelector('.ab-md');
    const length = md ? md.textContent.length : 0;
    if (length !== last) {
      last = length;
      records.push(length, now);
    }
  }).observe(root, { subtree: true, childList: true, characterData: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  } catch {}
})()`;

/**
 * In the page (BENCH_JS_SPLIT only): times each WebSocket message handler, and the handler plus
 * the microtasks queued before its end (the toolbar's render), by wrapping the `onmessage` setter
 * the toolbar's transport uses. performance.now() is coarsened to 100 µs here, so only means over
 * many messages count. It adds a few µs per message, so leave it off for the main-thread figure.
 */
const JS_SPLIT_SCRIPT = `(() => {
  const split = { on: false, messages: 0, handler: 0, total: 0 };
  window.__jsSplit = split;
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) {
      desc.set.call(this, typeof fn !== 'function' ? fn : function (event) {
        const t0 = performance.now();
        try {
          return fn.call(this, event);
        } finally {
          const t1 = performance.now();
          // Two hops: the render is queued in the handler, and this runs after it.
          queueMicrotask(() => queueMicrotask(() => {
            if (!split.on) return;
            split.messages++;
            split.handler += t1 - t0;
            split.total += performance.now() - t0;
          }));
        }
      });
    },
  });
})()`;

/**
 * In the page: appends `count` pieces of `size` characters of `full` (the text the stream sent) to
 * a new paragraph at the end of the last message, every `intervalMs` (the list follows them, as it
 * follows a stream). What the browser costs for the text a stream adds, without the socket, the
 * store or a render. The same words as the stream's, not any text of the same length: shaping a
 * paragraph costs a little less when its words repeat (in a local trace, 201 µs a frame for a
 * 14-word cycle against 230 for the stream's words). With no tag, the paragraph goes into an empty
 * page's body instead: what this Chromium costs for the text with nothing else on the page.
 */
const FLOOR_SCRIPT = `(([tag, full, count, size, intervalMs]) => new Promise((resolve) => {
  const messages = tag ? document.querySelector(tag).shadowRoot.querySelectorAll('.ab-msg-assistant .ab-md') : [document.body];
  const paragraph = document.createElement('p');
  messages[messages.length - 1].append(paragraph);
  const text = document.createTextNode('');
  paragraph.append(text);
  let n = 0;
  const timer = setInterval(() => {
    text.data = full.slice(0, ++n * size);
    if (n >= count) {
      clearInterval(timer);
      resolve();
    }
  }, intervalMs);
}))`;

/** Main-thread ms that `script` (the floor script with no tag) costs on an empty page of the same size. */
async function measureBlankPage(browser: Browser, script: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    // The toolbar's messages are about this wide, so the paragraph breaks into as many lines.
    await page.setContent('<!doctype html><style>body { width: 380px; margin: 16px; font: 14px/1.5 system-ui, sans-serif; }</style>');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const readTask = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m: { name: string }) => m.name === 'TaskDuration')?.value ?? Number.NaN) * 1000;
    await sleep(300);
    const before = await readTask();
    await page.evaluate(script);
    return (await readTask()) - before;
  } finally {
    await page.close();
  }
}

/**
 * Main-thread ms per wheel step: the pointer over the message list, `steps` wheel events of 100 px
 * up through the history, one every 50 ms (a brisk scroll; each step scrolls smoothly over several
 * frames, and messages come into view, are laid out and painted, and pass under the pointer).
 */
async function measureWheel(page: Page, readTaskMs: () => Promise<number>, steps: number): Promise<number> {
  const [x, y] = (await page.evaluate(
    `(() => { const r = document.querySelector(${JSON.stringify(HOST_TAG)}).shadowRoot.querySelector('.ab-log').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
  )) as [number, number];
  await page.mouse.move(x, y);
  await sleep(300);
  const before = await readTaskMs();
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, -100);
    await sleep(50);
  }
  // The last step's smooth scroll ends.
  await sleep(300);
  return ((await readTaskMs()) - before) / steps;
}

/**
 * The pass with the median main-thread time, carrying every pass's figure; a skip if any skipped.
 *
 * @example pickMedianPass([a, b, c]) // b when a < b < c by mainThreadMsPerDelta, with passes [a, b, c] figures
 */
export function pickMedianPass(results: readonly BrowserResult[]): BrowserResult {
  const skipped = results.find((r) => 'skipped' in r);
  if (skipped || results.length === 0) return skipped ?? { skipped: 'no pass ran' };
  const figures = results as readonly BrowserFigures[];
  const sorted = [...figures].sort((a, b) => a.mainThreadMsPerDelta - b.mainThreadMsPerDelta);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ...median, passes: figures.map((r) => r.mainThreadMsPerDelta) };
}

/**
 * @example const result = await measureBrowser({ historyMessages: 2000, deltas: 600, planDeltas: 1500, wheelSteps: 40, textLength: 50000, deltaSize: 4, paceHz: 100, gateMs: 250 });
 */
export async function measureBrowser(opts: BrowserOptions): Promise<BrowserResult> {
  if (!(await exists(TOOLBAR_BUNDLE))) return { skipped: 'toolbar bundle not built (dist/toolbar.js missing: npm run build)' };
  let chromium: typeof import('@playwright/test').chromium;
  try {
    ({ chromium } = await import('@playwright/test'));
  } catch {
    return { skipped: '@playwright/test is not installed' };
  }
  const executablePath = (await exists(SYSTEM_CHROMIUM)) ? SYSTEM_CHROMIUM : undefined;
  let browser: Awaited<ReturnType<typeof chromium.launch>>;
  try {
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  } catch (error) {
    return { skipped: `Chromium did not start (${executablePath ?? 'Playwright default'}): ${String(error).split('\n')[0]}` };
  }
  const server = await spawnBenchServer({ perMessageDeflate: true, seedMessages: opts.historyMessages });
  const driver = connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: true, name: 'browser-driver' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(([key]) => localStorage.setItem(key!, JSON.stringify({ open: true, width: 420, height: 760 })), [PREFS_KEY]);
    // The profiling options (bench/README, Profiling) look at the long-history stream only.
    const profiled = opts.historyMessages >= 1000;
    const jsSplit = !!process.env.BENCH_JS_SPLIT && profiled;
    if (jsSplit) await page.addInitScript(JS_SPLIT_SCRIPT);
    const t0 = Date.now();
    // The page holds the token: sign in with it (the server trades it for a cookie and goes to /).
    await page.goto(`${server.httpUrl}/?token=${encodeURIComponent(server.token)}`);
    // The toolbar renders a long chat's latest messages (MessageList WINDOW, 60 at least), not all of them.
    const expected = Math.min(opts.historyMessages, RENDER_WINDOW);
    try {
      await page.waitForFunction(
        ([tag, count]) => (document.querySelector(tag as string)?.shadowRoot?.querySelectorAll('.ab-msg').length ?? 0) >= (count as number),
        [HOST_TAG, expected] as const,
        { timeout: 60_000, polling: 100 },
      );
    } catch {
      const seen = await page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.querySelectorAll('.ab-msg').length ?? -1, HOST_TAG);
      return { skipped: `the toolbar did not render the ${opts.historyMessages}-message history within 60 s (saw ${seen} .ab-msg elements in the <${HOST_TAG}> shadow root, expected ${expected})` };
    }
    const historyRenderMs = Date.now() - t0;
    const renderedMessages = await page.evaluate((tag) => document.querySelector(tag)!.shadowRoot!.querySelectorAll('.ab-msg').length, HOST_TAG);
    await sleep(500);
    await page.evaluate(OBSERVER_SCRIPT);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const readMetrics = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const ms = (name: string) => (metrics.find((m: { name: string }) => m.name === name)?.value ?? Number.NaN) * 1000;
      return { task: ms('TaskDuration'), script: ms('ScriptDuration'), layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration') };
    };

    await waitConnected([driver]);
    const chatId = driver.sync.getSnapshot().state?.activeChatId;
    if (!chatId) return { skipped: 'the seeded chat is not active' };
    const plan: StreamPlan = { mode: 'paced', style: 'plain', textLength: opts.textLength, deltaSize: opts.deltaSize, deltas: opts.deltas, paceHz: opts.paceHz, gateMs: opts.gateMs };
    const deltas = planDeltas(plan);
    // Rendered text drops trailing spaces: delta i is visible once the trimmed prefix is.
    const visibleAt: number[] = [];
    let text = '';
    for (const d of deltas) visibleAt.push((text += d).trimEnd().length);
    /** Has the bench agent stream `stream` into the chat; resolves past its first delta and half its gate. */
    const startStream = async (stream: StreamPlan) => {
      const track = driver.follow(planDeltas(stream).map((d) => d.length));
      await driver.sync.request('message.send', {
        chatId,
        agent: BENCH_AGENT_ID,
        content: [{ type: 'text', text: JSON.stringify(stream) }],
        metadata: { source: 'other', selectedElements: [] },
      });
      await waitUntil(() => track.next >= 1, 20_000, `delta 0 of the ${stream.style} reply`);
      await sleep(stream.gateMs / 2);
      return track;
    };
    const track = await startStream(plan);
    if (jsSplit) await page.evaluate('window.__jsSplit.on = true');
    const before = await readMetrics();
    // BENCH_TRACE=FILE writes a Chromium trace of the long-history stream (open it in chrome://tracing or Perfetto).
    const tracing = process.env.BENCH_TRACE && profiled;
    if (tracing) await browser.startTracing(page, { categories: (process.env.BENCH_TRACE_CATS ?? 'devtools.timeline,disabled-by-default-devtools.timeline').split(',') });
    // BENCH_JS_PROF=FILE writes a V8 CPU profile of the page during the long-history stream.
    if (process.env.BENCH_JS_PROF && profiled) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    const lastVisible = visibleAt[visibleAt.length - 1]!;
    // Waits in this process until the driver has the whole reply, and only then asks the page: a
    // page poll every 50 ms through the stream was bench work charged to the toolbar's figure (the
    // browser's-share run below has no polling either).
    await waitUntil(() => track.next >= deltas.length, 60_000, 'the last delta at the driver client');
    await page.waitForFunction(
      (length) => {
        const r = (window as unknown as { __bench: { records: number[] } }).__bench.records;
        return r.length >= 2 && r[r.length - 2]! >= length;
      },
      lastVisible,
      { timeout: 60_000, polling: 50 },
    );
    const after = await readMetrics();
    const split = jsSplit
      ? await page.evaluate('(() => { const s = window.__jsSplit; s.on = false; return { messages: s.messages, handler: s.handler, total: s.total }; })()') as { messages: number; handler: number; total: number }
      : null;
    if (process.env.BENCH_JS_PROF && profiled) {
      const { profile } = await cdp.send('Profiler.stop');
      await (await import('node:fs/promises')).writeFile(process.env.BENCH_JS_PROF, JSON.stringify(profile));
    }
    if (tracing) await (await import('node:fs/promises')).writeFile(process.env.BENCH_TRACE!, await browser.stopTracing());
    const { records, longTasks } = await page.evaluate(() => (window as unknown as { __bench: { records: number[]; longTasks: number[] } }).__bench);
    const clock = await server.ask<{ hr: number; epoch: number }>('clock');
    const appends = await server.ask<number[]>('appends');
    const offset = clock.epoch - clock.hr;

    const latencies: number[] = [];
    let r = 0;
    for (let i = 1; i < deltas.length; i++) {
      while (r < records.length && records[r]! < visibleAt[i]!) r += 2;
      if (r >= records.length) break;
      latencies.push(records[r + 1]! - (appends[i]! + offset));
    }
    await waitUntil(() => driver.sync.getSnapshot().state?.run === null, 20_000, 'the end of the run');
    await sleep(200);
    const { pill, endDistance } = await page.evaluate((tag) => {
      const root = document.querySelector(tag)!.shadowRoot!;
      const log = root.querySelector('.ab-log')!;
      return {
        pill: (window as unknown as { __bench: { pill: boolean } }).__bench.pill || !!root.querySelector('.ab-jump'),
        endDistance: log.scrollHeight - log.scrollTop - log.clientHeight,
      };
    }, HOST_TAG);
    const beforeFloor = await readMetrics();
    await page.evaluate(`${FLOOR_SCRIPT}(${JSON.stringify([HOST_TAG, deltas.join(''), deltas.length - 1, opts.deltaSize, 1000 / opts.paceHz])})`);
    const afterFloor = await readMetrics();
    const blankMsPerDelta = await measureBlankPage(browser, `${FLOOR_SCRIPT}(${JSON.stringify([null, deltas.join(''), deltas.length - 1, opts.deltaSize, 1000 / opts.paceHz])})`);
    let planMsPerDelta: number | null = null;
    if (opts.planDeltas > 1) {
      const planned: StreamPlan = { ...plan, style: 'plan', deltas: opts.planDeltas };
      const planTrack = await startStream(planned);
      const beforePlan = await readMetrics();
      await waitUntil(() => planTrack.next >= planTrack.ends.length, 60_000, 'the last plan delta at the driver client');
      await waitUntil(() => driver.sync.getSnapshot().state?.run === null, 20_000, 'the end of the plan run');
      // Then the page: the reply shown whole (no longer busy).
      await page.waitForFunction(
        (tag) => document.querySelector(tag)!.shadowRoot!.querySelector('.ab-msg-assistant[aria-busy="true"]') === null,
        HOST_TAG,
        { timeout: 20_000, polling: 50 },
      );
      planMsPerDelta = ((await readMetrics()).task - beforePlan.task) / (planTrack.ends.length - 1);
    }
    const wheelMsPerStep = opts.wheelSteps > 0 ? await measureWheel(page, async () => (await readMetrics()).task, opts.wheelSteps) : null;
    return {
      historyMessages: opts.historyMessages,
      renderedMessages,
      historyRenderMs,
      deltas: deltas.length - 1,
      samples: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: maxOf(latencies),
      mainThreadMsPerDelta: (after.task - before.task) / (deltas.length - 1),
      scriptMsPerDelta: (after.script - before.script) / (deltas.length - 1),
      layoutMsPerDelta: (after.layout - before.layout) / (deltas.length - 1),
      styleMsPerDelta: (after.style - before.style) / (deltas.length - 1),
      longTasks: longTasks.length,
      longTaskMs: longTasks.reduce((a, b) => a + b, 0),
      followed: !pill && endDistance < 2,
      floorMsPerDelta: (afterFloor.task - beforeFloor.task) / (deltas.length - 1),
      blankMsPerDelta: blankMsPerDelta / (deltas.length - 1),
      planMsPerDelta,
      wheelMsPerStep,
      endDistance,
      ...(split && split.messages > 0 ? { jsSplit: { handlerMs: split.handler / split.messages, withRenderMs: split.total / split.messages, messages: split.messages } } : {}),
      chromium: browser.version(),
    };
  } finally {
    driver.close();
    await browser.close();
    await server.close();
  }
}
