/**
 * A long chat loaded from disk: the toolbar renders its latest messages and loads earlier ones as
 * the developer scrolls up to them (keeping the view in place), and it keeps following a streaming
 * reply when nobody scrolls: the browser moving scrollTop by itself (late layout under
 * content-visibility, scroll anchoring) must not count as the developer scrolling away.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Message } from '../shared/schemas.ts';
import { seedActiveChat } from '../bench/seed-chat.ts';
import { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';

/** Short user turns (shorter than the 60 px placeholder) and replies of every length, like a real chat. */
function makeChat(count: number): Message[] {
  const t0 = Date.now() - count * 60_000;
  return Array.from({ length: count }, (_, i): Message => {
    const createdAt = t0 + i * 60_000;
    if (i % 2 === 0) {
      return { id: randomUUID(), role: 'user', content: [{ type: 'text', text: ['ok', 'go on', 'and the header?', 'why'][i % 4]! }], metadata: { source: 'toolbar', selectedElements: [] }, createdAt };
    }
    const lines = 1 + ((i * 7) % 13);
    const text = Array.from({ length: lines }, (_, j) => `Line ${j + 1} of reply ${i}: the layout of this page is fine.`).join('\n\n');
    return { id: randomUUID(), role: 'assistant', agent: 'demo/guide', content: [{ type: 'text', text }], status: 'done', createdAt };
  });
}

test.describe('a long chat from disk', () => {
  let server: DemoServer;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'agentbar-e2e-follow-'));
    await seedActiveChat(dataDir, makeChat(400));
    // The long reply streams for about 4 s a turn: dozens of samples while it grows.
    server = await DemoServer.start({ dataDir, paceMs: 4 });
  });

  test.afterAll(async () => {
    await server?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('keeps following a streaming reply nobody scrolls away from', async ({ page }) => {
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    const articles = toolbar.log.getByRole('article');
    // Only the latest messages are in the page; the rest wait behind a button.
    await expect(articles.last()).toContainText('Line 1 of reply 399');
    const shown = await articles.count();
    expect(shown).toBeGreaterThanOrEqual(60);
    expect(shown).toBeLessThanOrEqual(100);
    await expect(toolbar.log.getByRole('button', { name: `Show earlier messages (${400 - shown} more)` })).toBeVisible();
    const latest = toolbar.latestButton;
    const distanceFromEnd = () => toolbar.distanceFromEnd();
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    // Groups the chat has moved past are "settled" (skipped whole while off screen); only the
    // group holding the last message is not.
    const unsettled = () => toolbar.log.locator('.ab-msg-group:not(.ab-settled)');
    await expect(unsettled()).toHaveCount(1);
    await expect(unsettled().getByRole('article').last()).toContainText('Line 1 of reply 399');
    const wasLast = await articles.last().elementHandle();

    for (let turn = 0; turn < 3; turn++) {
      await toolbar.send('long, to scroll');
      const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
      await expect(streaming).toBeVisible();
      // Sampled while it streams: the end stays in view and the pill never shows.
      let samples = 0;
      while ((await streaming.count()) > 0) {
        expect(await latest.isVisible(), `turn ${turn + 1}: "Latest" appeared without a scroll`).toBe(false);
        samples++;
        await page.waitForTimeout(50);
      }
      expect(samples).toBeGreaterThan(3);
      await expect.poll(distanceFromEnd).toBeLessThan(2);
      await expect(latest).toBeHidden();
    }
    // Six more messages: the group of the message that was last is settled now, with the same
    // element in it (settling does not mount its messages again).
    expect(await wasLast!.evaluate((el) => el.isConnected && el.closest('.ab-msg-group')!.classList.contains('ab-settled'))).toBe(true);
    await expect(unsettled()).toHaveCount(1);
    await expect(unsettled().getByRole('article').last()).toContainText('Step 40 of a long plan');
  });

  test('loads earlier messages as the developer scrolls up to them, keeping the view in place', async ({ page }) => {
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    const articles = toolbar.log.getByRole('article');
    await expect(articles.last()).toContainText('Step 40 of a long plan');
    const before = await articles.count();
    const scrollTop = () => toolbar.log.evaluate((el) => el.scrollTop);

    // Wheel up to the top of what is shown: earlier messages come in above it.
    const box = (await toolbar.log.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const firstReply = /of (reply \d+):/.exec((await toolbar.replies().first().textContent())!)![1]!;
    while ((await articles.count()) === before) {
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(100);
    }
    expect(await articles.count()).toBeGreaterThan(before);
    // Earlier messages come in a batch a frame; the log is busy until the last is in.
    const loaded = () => expect(toolbar.log).not.toHaveAttribute('aria-busy', 'true');
    await loaded();
    // The message that was first is still on the screen: the list did not jump to the new top.
    const was = toolbar.replies().filter({ hasText: `Line 1 of ${firstReply}:` });
    await expect.poll(async () => {
      const b = (await was.boundingBox())!;
      return b.y + b.height > box.y && b.y < box.y + box.height;
    }).toBe(true);
    expect(await scrollTop()).toBeGreaterThan(1000);

    // The button loads more too, from the keyboard.
    const more = toolbar.log.getByRole('button', { name: /^Show earlier messages/ });
    const count = await articles.count();
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => articles.count()).toBeGreaterThan(count);
    await loaded();
    // Enter again until every message is in: the button goes, and the focus stays in the list.
    while ((await more.count()) > 0) {
      await expect(more).toBeFocused();
      const now = await articles.count();
      await page.keyboard.press('Enter');
      await expect.poll(() => articles.count()).toBeGreaterThan(now);
      await loaded();
    }
    // All of them: the 400 from disk and the turns the test before added.
    expect(await articles.count()).toBeGreaterThanOrEqual(400);
    await expect(toolbar.userMessages.first().locator('.ab-bubble')).toHaveText('ok');
    await expect(toolbar.log).toBeFocused();

    // "Latest" goes back to the end with only the latest messages in the page again.
    await toolbar.latestButton.click();
    await expect.poll(() => articles.count()).toBeLessThanOrEqual(100);
    await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
  });

  test('renders earlier messages a group at a time, one group a frame, so loading them never hitches', async ({ page }) => {
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    const articles = toolbar.log.getByRole('article');
    const more = toolbar.log.getByRole('button', { name: /^Show earlier messages/ });
    await expect(more).toBeVisible();
    await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
    const before = await articles.count();
    // Counts the messages added to the list in each frame (a frame's scroll events, animation
    // frame callbacks and the renders they start share its timeline time).
    await toolbar.log.evaluate((log) => {
      const perFrame = new Map<number, number>();
      (window as unknown as { perFrame: Map<number, number> }).perFrame = perFrame;
      new MutationObserver((records) => {
        const frame = Number(document.timeline.currentTime);
        for (const r of records) {
          for (const node of r.addedNodes) {
            if (!(node instanceof Element)) continue;
            const added = (node.matches('.ab-msg') ? 1 : 0) + node.querySelectorAll('.ab-msg').length;
            if (added > 0) perFrame.set(frame, (perFrame.get(frame) ?? 0) + added);
          }
        }
      }).observe(log, { childList: true, subtree: true });
    });
    await more.click();
    // One step of the window (80 messages) arrives whole, across frames.
    await expect.poll(() => articles.count()).toBe(before + 80);
    await expect(toolbar.log).not.toHaveAttribute('aria-busy', 'true');
    const counts = await page.evaluate(() => [...(window as unknown as { perFrame: Map<number, number> }).perFrame.values()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(80);
    expect(Math.max(...counts)).toBeLessThanOrEqual(10);
  });
});
