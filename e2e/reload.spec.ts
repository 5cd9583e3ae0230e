/**
 * A page reload while the agent streams: the toolbar comes back to the same reply, which goes on
 * growing from where it was and ends once, complete.
 */
import { expect, snap, test } from './fixtures.ts';

/** The list items of the demo guide's `long` reply, as the toolbar renders them. */
const LONG_STEPS = Array.from(
  { length: 40 },
  (_, i) => `Step ${i + 1} of a long plan: check the layout, then the spacing, then the colours of section ${i + 1}.`,
);

// The reply goes on only while the gate is open: it is surely still going after the reload.
test.use({ gate: true });

test('a reload mid-stream continues the reply where it was, without duplicating text', async ({ server, toolbar, page }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('a long answer please');
  const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
  server.openGate();
  await expect(streaming).toContainText('Step 3 of a long plan');
  server.closeGate();

  await page.reload();
  await toolbar.open();
  // Still the same chat, still streaming, and what was streamed before the reload is there.
  await expect(toolbar.activeChat).toHaveText('a long answer please');
  await expect(streaming).toBeVisible();
  await expect(streaming).toContainText('Step 3 of a long plan');
  await snap(page, testInfo, 'reload-streaming');

  const reply = toolbar.replies().last();
  const lengthAfterReload = ((await reply.textContent()) ?? '').length;
  server.openGate();
  await expect.poll(async () => ((await reply.textContent()) ?? '').length).toBeGreaterThan(lengthAfterReload);

  const done = toolbar.doneReplies();
  await expect(done).toHaveCount(1);
  await expect(done.locator('p').first()).toHaveText('A long answer; press Stop whenever you like.');
  // Every step exactly once, in order: nothing was lost or replayed twice across the reload.
  await expect(done.getByRole('listitem')).toHaveText(LONG_STEPS);
  await expect(toolbar.userMessages).toHaveText(['a long answer please']);
  await expect(toolbar.stopButton).toBeHidden();
  await snap(page, testInfo, 'reload-done');
});
