/** Section 7's table from `measureBrowser` (bench/browser.ts). */
import type { BrowserFigures, BrowserResult } from './browser.ts';
import { below, judge, type Cell, type Section } from './report.ts';

/**
 * @param main the measurement over the long history (the one the targets are for)
 * @param compare the same over a short history, or null
 */
export function browserSection(main: BrowserResult, compare: BrowserResult | null, paceHz: number): Section {
  const title = '7. Browser: server append → text in the toolbar DOM, main-thread time per delta';
  if ('skipped' in main) {
    return { key: 'browser', title, columns: [], rows: [], notes: [], data: main, skipped: main.skipped };
  }
  const other = compare && !('skipped' in compare) ? compare : null;
  const latency = below(16, ' ms');
  const thread = below(2, ' ms');
  const row = (metric: string, pick: (r: BrowserFigures) => Cell, target?: typeof latency): Cell[] => {
    const value = pick(main);
    const cells: Cell[] = [metric, value];
    if (other) cells.push(pick(other));
    cells.push(target?.text ?? '', target && typeof value === 'number' ? judge(value, target) : '');
    return cells;
  };
  const split = (r: BrowserFigures) => `${r.scriptMsPerDelta.toFixed(2)} / ${r.layoutMsPerDelta.toFixed(2)} / ${r.styleMsPerDelta.toFixed(2)}`;
  const notes = [
    `Chromium ${main.chromium} (headless, /usr/bin/chromium when present) on the server's demo page with dist/toolbar.js, panel open, the active chat holding the history (bench/seed-chat.ts). The stream (${main.deltas + 1} deltas, paced ${paceHz}/s) is plain prose (no markdown) so the DOM text length maps to delta indexes.`,
    'DOM time: a MutationObserver on the toolbar\'s shadow root reads the streaming message\'s text length (performance.timeOrigin + now()); append time: the agent\'s hrtime turned into epoch ms in the server process. Main thread: CDP Performance.getMetrics TaskDuration over the stream ÷ deltas (includes the bench\'s observer; the bench waits for the end in its own process, without polling the page); its parts are ScriptDuration, LayoutDuration, RecalcStyleDuration; the remainder is mostly paint, lifecycle and intersection work.',
  ];
  notes.push(
    `The browser's share: after the stream, a page script makes the same ${main.deltas} text changes at the same pace to a new paragraph at the end of the streamed message (the list follows them), with no socket, store or render; its main-thread time per change is what this Chromium costs for the text alone. The difference (${(main.mainThreadMsPerDelta - main.floorMsPerDelta).toFixed(2)} ms here) is the toolbar's own work per delta: the frame, its validation, the patch, the store and the render. The same changes to a paragraph as wide on an empty page, in the same browser, cost ${main.blankMsPerDelta.toFixed(2)} ms each: this Chromium's floor on this machine, which moves with the machine's speed as the other figures do.`,
  );
  if (main.planMsPerDelta !== null) {
    notes.push(
      'A plan: after the browser\'s share, a second reply streams into the same chat at the same pace, a numbered list with a code block in every item (bench/reply-text.ts makePlanText), the shape of reply that stays open longest: a list settles only when a block after it starts. Main-thread time per delta only (its DOM text is not its source, so no latency), from its second delta to the reply shown whole; no target of its own.',
    );
  }
  if (main.wheelMsPerStep !== null) {
    notes.push(
      'Wheel: at the end of the pass, the pointer over the message list, wheel steps of 100 px up through the history, one every 50 ms (each scrolls smoothly over several frames); main-thread time per step, including laying out and painting the messages that come into view. No target of its own.',
    );
  }
  if (main.passes && main.passes.length > 1) {
    notes.push(
      `The ${main.historyMessages}-message figures are the pass with the median main-thread time of ${main.passes.length} (${main.passes.map((ms) => ms.toFixed(2)).join(', ')} ms per delta, in run order): one run varies by ±0.3 ms on a shared machine.`,
    );
  }
  const other3 = (r: BrowserFigures) => r.mainThreadMsPerDelta - r.scriptMsPerDelta - r.layoutMsPerDelta - r.styleMsPerDelta;
  if (judge(main.mainThreadMsPerDelta, thread) === 'MISS') {
    notes.push(
      `Main-thread MISS: ${main.mainThreadMsPerDelta.toFixed(2)} ms per delta = script ${main.scriptMsPerDelta.toFixed(2)} + layout ${main.layoutMsPerDelta.toFixed(2)} + style ${main.styleMsPerDelta.toFixed(2)} + other (paint, lifecycle, intersection observers) ${other3(main).toFixed(2)}${other ? `; with ${other.historyMessages} messages it is ${other.mainThreadMsPerDelta.toFixed(2)}, so ${main.mainThreadMsPerDelta > other.mainThreadMsPerDelta * 1.5 ? 'the cost grows with the history: work per delta touches every rendered message (layout of the whole list, content-visibility bookkeeping, list diffing)' : 'the cost does not come from the history'}` : ''}. Of it, the browser's own cost for the same text changes is ${main.floorMsPerDelta.toFixed(2)} and the toolbar's share ${(main.mainThreadMsPerDelta - main.floorMsPerDelta).toFixed(2)}. To see where, trace the stream (README, Profiling).`,
    );
  }
  for (const r of [main, ...(other ? [other] : [])]) {
    if (!r.followed) notes.push(`With ${r.historyMessages} messages the list stopped following the stream by itself (${Math.round(r.endDistance)} px from the end when the reply finished): the reply grew off-screen, so the per-delta figures of that run understate what a user at the end pays.`);
  }
  if (judge(main.p99, latency) === 'MISS') {
    const saturated = main.mainThreadMsPerDelta > (1000 / paceHz) * 0.5;
    notes.push(
      saturated
        ? `p99 MISS: the main thread is busy ${main.mainThreadMsPerDelta.toFixed(1)} of every ${Math.round(1000 / paceHz)} ms, so deltas queue behind rendering.`
        : `p99 MISS while the main thread is busy only ${main.mainThreadMsPerDelta.toFixed(2)} of every ${Math.round(1000 / paceHz)} ms: the tail is stalls, not per-delta work (max ${main.max.toFixed(0)} ms, ${main.longTasks} long task(s)${other ? `; the ${other.historyMessages}-message run: p99 ${other.p99.toFixed(1)} ms, max ${other.max.toFixed(0)} ms` : ''}). The browser, the server and the bench share the machine; rerun on an idle machine before reading this p99 as the toolbar's.`,
    );
  }
  return {
    key: 'browser',
    title,
    columns: ['metric', `${main.historyMessages} messages`, ...(other ? [`${other.historyMessages} messages`] : []), 'target', 'result'],
    rows: [
      row('history messages rendered', (r) => r.renderedMessages),
      row('page load → history rendered (ms)', (r) => r.historyRenderMs),
      row('deltas measured', (r) => r.samples),
      row('append → DOM p50 (ms)', (r) => r.p50),
      row('append → DOM p99 (ms)', (r) => r.p99, latency),
      row('append → DOM max (ms)', (r) => r.max),
      row('main-thread ms per delta', (r) => r.mainThreadMsPerDelta, thread),
      row('  script / layout / style ms per delta', split),
      row('  of which the browser: same text changes by a page script', (r) => r.floorMsPerDelta),
      row('  the same text changes on an empty page (this Chromium\'s floor)', (r) => r.blankMsPerDelta),
      row('main-thread ms per delta, streaming a plan (one list, code in every item)', (r) => r.planMsPerDelta ?? '–'),
      row('main-thread ms per wheel step, scrolling up the history (100 px)', (r) => r.wheelMsPerStep ?? '–'),
      ...(main.jsSplit
        ? [row('  toolbar JS per message: socket handler / with its render (BENCH_JS_SPLIT)', (r) => (r.jsSplit ? `${r.jsSplit.handlerMs.toFixed(3)} / ${r.jsSplit.withRenderMs.toFixed(3)}` : '–'))]
        : []),
      row('long tasks (count / total ms)', (r) => `${r.longTasks} / ${Math.round(r.longTaskMs)}`),
      row('list followed the stream (no "Latest" pill, end in view)', (r) => (r.followed ? 'yes' : `NO (${Math.round(r.endDistance)} px from the end)`)),
    ],
    notes,
    data: { main, compare },
  };
}
