/**
 * The server stops (SIGTERM) and comes back on the same port: the open toolbar says it lost the
 * connection, reconnects on its own, and shows the same chats.
 */
import { expect, snap, test } from './fixtures.ts';

test.beforeEach(async ({ toolbar }) => {
  await toolbar.start();
});

test('reconnects after a server restart and shows the same chats', async ({ toolbar, server, page }, testInfo) => {
  await toolbar.newChat();
  await toolbar.send('kept help');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await toolbar.newChat();
  await toolbar.send('also kept help');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  const titles = await toolbar.chatTabs.allTextContents();
  expect(titles).toEqual(['also kept help', 'kept help']);

  const exit = await server.stop();
  expect(exit).toEqual({ code: 0, signal: null });
  await expect(toolbar.status).toHaveText(/^(Reconnecting…|Offline)$/);
  await toolbar.composer.fill('anyone there?');
  await expect(toolbar.sendButton).toBeDisabled();
  await snap(page, testInfo, 'restart-disconnected');

  await server.restart();
  await expect(toolbar.status).toHaveText('Connected', { timeout: 30_000 });
  await expect(toolbar.chatTabs).toHaveText(titles);
  await expect(toolbar.activeChat).toHaveText('also kept help');
  await expect(toolbar.userMessages).toHaveText(['also kept help']);
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await snap(page, testInfo, 'restart-reconnected');

  // The draft survived, and sending works again.
  await expect(toolbar.composer).toHaveValue('anyone there?');
  await expect(toolbar.sendButton).toBeEnabled();
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages).toHaveText(['also kept help', 'anyone there?']);
  await expect(toolbar.doneReplies()).toHaveCount(2);
});

test.describe('while a long reply streams', () => {
  // The reply holds after its first step: it is still going when the server stops.
  test.use({ gate: true });

  test('a reply cut by a restart comes back interrupted', async ({ toolbar, server }) => {
    await toolbar.newChat();
    await toolbar.send('long before the restart');
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('Step 1 of a long plan');

    await server.stop();
    await expect(toolbar.status).toHaveText(/^(Reconnecting…|Offline)$/);
    await server.restart();
    await expect(toolbar.status).toHaveText('Connected', { timeout: 30_000 });
    const interrupted = toolbar.log.getByRole('article', { name: 'demo/guide, interrupted' });
    await expect(interrupted).toContainText('Step 1 of a long plan');
    await expect(interrupted.locator('.ab-state')).toHaveText('interrupted');
    await expect(toolbar.stopButton).toBeHidden();
  });
});
