/**
 * A conversation with the demo agents through the toolbar: every part type the toolbar renders,
 * tool approvals, failures, Stop, and choosing the agent.
 */
import { readFile } from 'node:fs/promises';
import { expect, snap, test } from './fixtures.ts';

test.beforeEach(async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
});

test('renders streamed markdown with a code block, once', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('show me markdown');
  await expect(toolbar.userMessages).toHaveText(['show me markdown']);
  // A chat created without a title takes it from its first message.
  await expect(toolbar.activeChat).toHaveText('show me markdown');

  const reply = toolbar.doneReplies().last();
  await expect(reply).toBeVisible();
  await expect(reply.locator('strong')).toHaveText('TypeScript');
  await expect(reply.locator('.ab-code-head')).toContainText('ts');
  await expect(reply.locator('pre code')).toContainText('export function debounce<T extends unknown[]>');
  await expect(reply.locator('pre code')).toContainText('timer = setTimeout(() => fn(...args), ms);');
  await expect(reply.getByRole('listitem')).toHaveText(['It keeps only the last call within ms.', 'Use it for search boxes and resize handlers.1']);
  await expect(reply.locator('blockquote')).toContainText('Tip: pass { leading: true } variants');
  await expect(reply.getByRole('button', { name: 'Copy code' })).toBeVisible();
  // Every streamed piece landed exactly once.
  const text = (await reply.textContent()) ?? '';
  expect(text.split('Here is a small').length - 1).toBe(1);
  expect(text.split('export function debounce').length - 1).toBe(1);
  await snap(page, testInfo, 'markdown-reply');
});

test('spaces every kind of block across the settled boundary as in one list of blocks', async ({ toolbar }) => {
  await toolbar.send('show me markdown');
  const md = toolbar.doneReplies().last().locator('.ab-md').first();
  // Builds each pair of block kinds on both sides of the settled element (and the same blocks as
  // plain siblings) next to a real reply, under the toolbar's stylesheet, and compares the layouts.
  const mismatches = await md.evaluate((real) => {
    const kinds: Record<string, string> = {
      p: '<p>para</p>',
      h2: '<h2>Head</h2>',
      ul: '<ul><li>item</li></ul>',
      quote: '<blockquote><p>quote</p></blockquote>',
      hr: '<hr>',
      code: '<div class="ab-code"><pre><code>x = 1</code></pre></div>',
      note: '<div class="ab-footnote"><span class="ab-footnote-num">1</span><div class="ab-footnote-body"><p>note</p></div></div>',
    };
    const build = (settled: string, tail: string) => {
      const el = document.createElement('div');
      el.className = 'ab-md';
      el.innerHTML = (settled ? `<div class="ab-md-settled">${settled}</div>` : '') + tail;
      real.after(el);
      return el;
    };
    const layout = (root: Element) => {
      const top = root.getBoundingClientRect().top;
      const blocks = [...root.children].flatMap((c) => (c.classList.contains('ab-md-settled') ? [...c.children] : [c]));
      return JSON.stringify([root.getBoundingClientRect().height, ...blocks.map((b) => [b.getBoundingClientRect().top - top, getComputedStyle(b).borderTopWidth])]);
    };
    const out: string[] = [];
    for (const [a, first] of Object.entries(kinds)) {
      for (const [b, second] of Object.entries(kinds)) {
        const cases: [string, string, string][] = [
          [`${a} | ${b} (between others)`, kinds.p + first, second + kinds.p],
          [`${a} | ${b} (first and last)`, first, second],
          [`${a} ${b} | (nothing open)`, first + second, ''],
        ];
        for (const [name, settled, tail] of cases) {
          const wrapped = build(settled, tail);
          const flat = build('', settled + tail);
          if (layout(wrapped) !== layout(flat)) out.push(`${name}: ${layout(wrapped)} against ${layout(flat)}`);
          wrapped.remove();
          flat.remove();
        }
      }
    }
    return out;
  });
  expect(mismatches).toEqual([]);
});

test('shows reasoning collapsed, and expands it on click', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('think first');
  const reply = toolbar.doneReplies().last();
  await expect(reply).toContainText('Done thinking: reasoning parts are shown collapsed above this answer.');
  const reasoning = reply.locator('details.ab-reasoning');
  const thought = reasoning.getByText('The user wants to see reasoning.');
  await expect(reasoning.locator('summary')).toHaveText(/^Thought for \d+ s$/);
  await expect(thought).toBeHidden();
  await snap(page, testInfo, 'reasoning-collapsed');

  await reasoning.locator('summary').click();
  await expect(thought).toBeVisible();
  await expect(reasoning).toHaveJSProperty('open', true);
  await snap(page, testInfo, 'reasoning-expanded');
});

test('offers a file part as a download link that downloads the file', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('give me a file');
  const reply = toolbar.doneReplies().last();
  await expect(reply).toContainText('Here is the orders table as a CSV file:');
  const link = reply.getByRole('link', { name: 'Download orders.csv' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('download', 'orders.csv');
  await expect(link).toHaveAttribute('href', /^data:text\/csv;base64,/);
  await snap(page, testInfo, 'file-reply');

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('orders.csv');
  const body = await readFile(await download.path(), 'utf8');
  expect(body).toContain('order,customer,total,status\n10421,Ada Lovelace,320.00,paid');
});

test('shows backend and cli tool calls as cards with their state and result', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('search the docs');
  const docs = toolbar.doneReplies().last();
  await expect(docs).toContainText('Found it: see Protocol §3 on state and diffs.');
  const call = docs.getByRole('group', { name: 'Tool call search_docs' });
  await expect(call).toContainText('backend');
  await expect(call.locator('.ab-s-done')).toHaveText('done');
  await call.locator('.ab-tool-head').click();
  await expect(call.getByLabel('Output of search_docs')).toContainText('Protocol §3: State and diffs');

  await toolbar.send('system info');
  const cliCall = toolbar.log.getByRole('group', { name: 'Tool call system_info' });
  await expect(cliCall).toContainText('cli');
  await expect(cliCall.locator('.ab-s-done')).toHaveText('done');
  // A cli tool's result is stored as a tool message of its own, and shows in its call's card.
  await expect(toolbar.log.getByRole('article', { name: 'Tool results' })).toHaveCount(0);
  await cliCall.locator('.ab-tool-head').click();
  await expect(cliCall.getByLabel('Output of system_info')).toContainText('"platform"');
  const answer = toolbar.doneReplies().last();
  await expect(answer).toContainText(`The agent runs on ${process.platform} with Node ${process.version}`);
  // The step that only called the tool has nothing to copy or redo: no row under it (its time is in
  // its head), so the answer follows its card as closely as one message follows another.
  const callStep = toolbar.log.getByRole('article').filter({ has: page.getByRole('group', { name: 'Tool call system_info' }) });
  await expect(callStep).toHaveCount(1);
  await expect(callStep.locator('.ab-msg-actions')).toHaveCount(0);
  await expect(callStep.locator('.ab-msg-head time.ab-time')).toHaveCount(1);
  const callBox = (await callStep.boundingBox())!;
  const answerBox = (await answer.boundingBox())!;
  expect(answerBox.y - (callBox.y + callBox.height)).toBeLessThanOrEqual(13);
  await snap(page, testInfo, 'tool-cards');
});

test("in the guide's Trusting mode a toolbar tool runs without asking; the mode is the chat's own", async ({ toolbar, page }, testInfo) => {
  const mode = toolbar.panel.getByRole('combobox', { name: 'Mode' });
  await expect(mode).toHaveText('Ask first');
  await expect(mode).not.toHaveClass(/ab-mode-on/);
  await toolbar.choose('Mode', 'Trusting');
  // Not the agent's first mode: it stands out.
  await expect(mode).toHaveClass(/ab-mode-on/);
  await toolbar.send('read my selection');
  await expect(toolbar.doneReplies().last()).toContainText('No elements are selected. Press Pick elements');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  await expect(card.locator('.ab-s-done')).toHaveText('done');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(toolbar.log).toContainText('Reading the elements you picked (Trusting mode: without asking).');
  await snap(page, testInfo, 'mode-trusting');

  await toolbar.newChat();
  await expect(mode).toHaveText('Ask first');
});

test('"Always allow" runs the call, says so in the chat, and the guide reads without asking from then on', async ({ toolbar, page }, testInfo) => {
  const mode = toolbar.panel.getByRole('combobox', { name: 'Mode' });
  await expect(mode).toHaveText('Ask first');
  await toolbar.send('read my selection');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  const always = card.getByRole('button', { name: 'Always allow' });
  await expect(always).toHaveAttribute('title', 'Approve, and let the agent do this again without asking');
  await always.click();
  await expect(card.locator('.ab-s-done')).toHaveText('done');
  // The card keeps that the answer was for good, not only that it was yes.
  await expect(card.locator('.ab-tool-answer')).toHaveText('Always allowed');
  await expect(toolbar.doneReplies().last()).toContainText('You chose Always allow: this chat is in Trusting mode now');
  await expect(mode).toHaveText('Trusting');
  await snap(page, testInfo, 'approval-always');

  await toolbar.send('read my selection again');
  await expect(toolbar.doneReplies().last()).toContainText('No elements are selected. Press Pick elements');
  const second = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' }).last();
  await expect(second.locator('.ab-s-done')).toHaveText('done');
  await expect(toolbar.log.getByRole('button', { name: 'Approve' })).toHaveCount(0);
});

test('asks approval for a toolbar tool: Approve runs it, Reject sends the reason', async ({ toolbar, page }, testInfo) => {
  // A reply long enough that the list scrolls: after Approve, the list must still follow.
  await toolbar.ask('help');
  await toolbar.send('read my selection');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  await expect(card).toContainText('toolbar');
  await expect(card.locator('.ab-s-awaiting-approval')).toHaveText('awaiting approval');
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
  // The reply that asks is the last message, but the turn is not over: nothing to ask again yet.
  const asking = toolbar.log.getByRole('article').filter({ has: page.getByRole('group', { name: 'Tool call get_selected_elements' }) });
  await asking.hover();
  await expect(asking.getByRole('button', { name: 'Copy message' })).toBeVisible();
  await expect(asking.getByRole('button', { name: /Regenerate|Retry/ })).toHaveCount(0);
  await snap(page, testInfo, 'approval-awaiting');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.ab-s-done')).toHaveText('done');
  await expect(card.getByRole('button', { name: 'Approve' })).toBeHidden();
  await expect(card.locator('.ab-tool-answer')).toHaveText('Approved');
  await expect(toolbar.doneReplies().last()).toContainText('No elements are selected. Press Pick elements');
  await expect(toolbar.log.getByRole('button', { name: 'Regenerate' })).toHaveCount(1);
  // Clicking Approve is not a scroll: the list followed the result and the reply to their end.
  await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
  await expect(toolbar.latestButton).toBeHidden();

  await toolbar.send('read my selection again');
  const second = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' }).last();
  await expect(second.getByRole('button', { name: 'Reject' })).toBeVisible();
  await second.getByRole('textbox', { name: 'Reason' }).fill('not on this page');
  await second.getByRole('button', { name: 'Reject' }).click();
  await expect(second.locator('.ab-s-denied')).toHaveText('rejected');
  await expect(second.locator('.ab-tool-answer')).toHaveText('Rejected: not on this page');
  await expect(toolbar.doneReplies().last()).toContainText('Understood, I will not read the page (not on this page).');
  await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
  // The answers are on the cards: the developer's messages are the two questions.
  await expect(toolbar.userMessages).toHaveText(['help', 'read my selection', 'read my selection again']);
  await snap(page, testInfo, 'approval-rejected');
});

test('shows a failing agent as a failed message with its error, and keeps serving', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('fail now');
  const failed = toolbar.log.getByRole('article', { name: 'demo/guide, failed' });
  await expect(failed).toContainText('Let me try something risky…');
  await expect(failed.locator('.ab-state')).toHaveText('failed');
  await expect(failed.getByRole('note')).toHaveText('Failed: Demo failure: the agent threw on purpose, and the server kept serving.');
  await snap(page, testInfo, 'failed-reply');

  await toolbar.send('help');
  await expect(toolbar.doneReplies().last().getByRole('table')).toContainText('a long reply, to try Stop');
});

test.describe('while a long reply streams', () => {
  // The long reply goes on from step to step only while the gate is open: it is still going
  // after a screenshot and several clicks, however busy the machine (Stop ends it).
  test.use({ gate: true });

  test('Stop ends a long streaming reply as stopped', async ({ server, toolbar, page }, testInfo) => {
    await toolbar.send('something long');
    const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
    await expect(streaming).toContainText('writing…');
    server.openGate();
    await expect(streaming).toContainText('Step 2 of a long plan');
    server.closeGate();
    await snap(page, testInfo, 'long-streaming');

    await toolbar.stopButton.click();
    const stopped = toolbar.log.getByRole('article', { name: 'demo/guide, stopped' });
    await expect(stopped).toContainText('Stopped before the answer was complete.');
    await expect(stopped.locator('.ab-state')).toHaveText('stopped');
    await expect(toolbar.stopButton).toBeHidden();
    await expect(stopped).not.toContainText('Step 40 of a long plan');
    await snap(page, testInfo, 'long-stopped');
  });

  test('keeps each item of a list being streamed in its own paint layer, built once', async ({ server, toolbar }) => {
    await toolbar.send('something long');
    const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
    server.openGate();
    await expect(streaming).toContainText('Step 6 of a long plan');
    server.closeGate();
    const items = streaming.locator('.ab-md > ol > li');
    // The items as elements, kept in the page: the items a delta cannot change stay these very
    // elements, each its own stacking context, so a frame of streaming repaints the last one only.
    const first = await items.evaluateAll((lis) => {
      (window as unknown as { seenItems: Element[] }).seenItems = lis.slice(0, 5);
      return lis.map((li) => getComputedStyle(li).isolation);
    });
    expect(first.slice(0, 5)).toEqual(['isolate', 'isolate', 'isolate', 'isolate', 'isolate']);
    server.openGate();
    await expect(streaming).toContainText('Step 12 of a long plan');
    server.closeGate();
    const same = await items.evaluateAll((lis) => (window as unknown as { seenItems: Element[] }).seenItems.map((li, i) => li === lis[i]));
    expect(same).toEqual([true, true, true, true, true]);
    await toolbar.stopButton.click();
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
  });

});

test.describe('while markdown streams slowly', () => {
  // The stream takes about 7 s: samples see its blocks settle one by one.
  test.use({ paceMs: 40 });

  test('keeps the settled blocks of a streaming reply in one paint layer, laid out as without it', async ({ toolbar }) => {
    await toolbar.send('show me markdown');
    const md = toolbar.log.getByRole('article').last().locator('.ab-md').first();
    await expect(md.locator('.ab-md-settled')).toHaveCount(1);
    // In the page, at one moment of the stream: the settled element, and the reply's layout with
    // it and without it (a copy with its blocks put back as the reply's own children).
    const probe = (el: Element) => {
      const w = window as unknown as { seenSettled?: Element; seenFirst?: Element };
      const settled = el.querySelector(':scope > .ab-md-settled')!;
      const blocks = (root: Element) => [...root.children].flatMap((c) => (c.classList.contains('ab-md-settled') ? [...c.children] : [c]));
      const layout = (root: Element) => {
        const top = root.getBoundingClientRect().top;
        return {
          height: root.getBoundingClientRect().height,
          tops: blocks(root).map((b) => b.getBoundingClientRect().top - top),
          rules: blocks(root).map((b) => getComputedStyle(b).borderTopWidth),
        };
      };
      const flat = el.cloneNode(true) as Element;
      const copy = flat.querySelector(':scope > .ab-md-settled')!;
      copy.replaceWith(...copy.childNodes);
      el.after(flat);
      try {
        return {
          busy: el.closest('[aria-busy="true"]') !== null,
          settled: settled.children.length,
          sameElement: (w.seenSettled ??= settled) === settled,
          sameFirstBlock: (w.seenFirst ??= settled.firstElementChild!) === settled.firstElementChild,
          isolation: getComputedStyle(settled).isolation,
          wrapped: layout(el),
          flat: layout(flat),
        };
      } finally {
        flat.remove();
      }
    };
    const counts = new Set<number>();
    // Until the reply ends: the stream takes about 7 s, and a sample 20–40 ms, more on a busy
    // machine, so a cap of a few hundred samples could end the loop before the last blocks settle.
    for (let i = 0; i < 5_000; i++) {
      const sample = await md.evaluate(probe);
      expect(sample.isolation).toBe('isolate');
      // Streaming reuses the element and the blocks in it: appended to, never built again.
      expect(sample.sameElement && sample.sameFirstBlock).toBe(true);
      expect(sample.wrapped, `with ${sample.settled} settled blocks`).toEqual(sample.flat);
      counts.add(sample.settled);
      if (!sample.busy) break;
    }
    await expect(toolbar.doneReplies().last().locator('.ab-footnote')).toBeVisible();
    // Seen with the paragraph, the code block and the list settled in turn (the last two blocks
    // stay open: the quote and the footnote).
    expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });
});

test('lists every agent: the unimplemented one is disabled, another one answers by name', async ({ toolbar, page }, testInfo) => {
  await expect(toolbar.agentSelect).toHaveText('demo/guide');
  await toolbar.agentSelect.click();
  const options = toolbar.panel.getByRole('listbox', { name: 'Agent' }).getByRole('option');
  await expect(options.locator('.ab-menu-name')).toHaveText(['demo/guide', 'demo/historian', 'demo/planner (not implemented)']);
  await expect(options.nth(2)).toHaveAttribute('aria-disabled', 'true');
  await expect(options.nth(1)).not.toHaveAttribute('aria-disabled');
  await toolbar.agentSelect.press('Escape');

  await toolbar.send('help me');
  await expect(toolbar.doneReplies('demo/guide')).toHaveCount(1);

  await toolbar.choose('Agent', 'demo/historian');
  await toolbar.send('summarize this chat');
  const summary = toolbar.doneReplies('demo/historian');
  await expect(summary).toHaveCount(1);
  await expect(summary.locator('.ab-agent')).toHaveText('demo/historian');
  // It read the whole shared history, the guide's turn included.
  await expect(summary).toContainText('This chat has 3 messages: 2 from you, 1 reply from agents, 0 tool results.');
  await expect(summary).toContainText('Agents that answered: demo/guide.');
  await expect(summary).toContainText('It started with: “help me”.');
  await snap(page, testInfo, 'historian-reply');
});
