/**
 * A long chat loaded from disk keeps following a streaming reply when nobody scrolls: messages the
 * browser lays out late (content-visibility) change heights above the view, and scroll anchoring
 * moves scrollTop up by itself; that must not count as the developer scrolling away.
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
    server = await DemoServer.start({ dataDir, paceMs: 15 });
  });

  test.afterAll(async () => {
    await server?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('keeps following a streaming reply nobody scrolls away from', async ({ page }) => {
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    await expect(toolbar.log.getByRole('article')).toHaveCount(400);
    const latest = toolbar.panel.getByRole('button', { name: 'Scroll to latest' });
    const distanceFromEnd = () => toolbar.log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await expect.poll(distanceFromEnd).toBeLessThan(2);

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
  });
});
