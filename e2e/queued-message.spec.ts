/**
 * A message sent while the agent works waits over the box and goes out by itself when the reply
 * ends; Edit and Stop put it back in the box, unsent.
 */
import { seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';

// The demo's long reply holds after its first step until the test opens the gate: room to type
// while it goes on, however busy the machine.
test.use({ gate: true });

test('sends a message typed during a reply once the reply ends, and says it waits until then', async ({ page, server, toolbar }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('a long one');
  const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
  await expect(streaming).toContainText('Step 1 of a long plan');
  await expect(toolbar.sendButton).toHaveAttribute('title', 'Send when the reply ends (Enter)');

  await toolbar.composer.fill('and then show me some markdown');
  await toolbar.composer.press('Enter');
  const queued = toolbar.panel.locator('.ab-queued');
  await expect(queued.getByRole('status')).toHaveText('Sends after this reply: and then show me some markdown');
  await expect(toolbar.composer).toHaveValue('');
  await expect(toolbar.alert).toBeHidden();
  await expect(toolbar.panel.locator('.ab-composer .ab-error')).toHaveCount(0);
  // Still one message from the user: the second waits in the toolbar, not in the chat.
  await expect(toolbar.userMessages).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, 'queued-message');

  // The long reply ends; the waiting message goes by itself and gets its own reply.
  server.openGate();
  await expect(toolbar.userMessages).toHaveText(['a long one', 'and then show me some markdown']);
  await expect(queued).toBeHidden();
  await expect(toolbar.doneReplies()).toHaveCount(2, { timeout: 30_000 });
  await expect(toolbar.doneReplies().nth(1)).toContainText('debounce');
  await expect(toolbar.panel.locator('.ab-composer .ab-error')).toHaveCount(0);
});

test('Edit and Stop put the waiting message back in the box, unsent', async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('a long one');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('Step 1 of a long plan');
  const queued = toolbar.panel.locator('.ab-queued');

  await toolbar.composer.fill('first thought');
  await toolbar.sendButton.click();
  await expect(queued).toContainText('first thought');
  await toolbar.composer.fill('second thought');
  await toolbar.composer.press('Enter');
  // One message waits: a second send adds to it.
  await expect(queued.getByRole('status')).toHaveText('Sends after this reply: first thought');
  await expect(queued.getByRole('status')).toHaveAttribute('title', 'first thought\n\nsecond thought');

  await queued.getByRole('button', { name: 'Edit the queued message' }).click();
  await expect(queued).toBeHidden();
  await expect(toolbar.composer).toHaveValue('first thought\n\nsecond thought');

  await toolbar.composer.press('Enter');
  await expect(queued).toBeVisible();
  await toolbar.composer.fill('typed after');
  await toolbar.stopButton.click();
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
  await expect(queued).toBeHidden();
  await expect(toolbar.composer).toHaveValue('first thought\n\nsecond thought\n\ntyped after');
  // Nothing went out: Stop ends what would have happened by itself.
  await expect(toolbar.userMessages).toHaveText(['a long one']);
});

test('a reload of the page keeps what was typed and the waiting message, which still goes when the reply ends', async ({ page, server, toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('a long one');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('Step 1 of a long plan');
  await toolbar.composer.fill('then the markdown');
  await toolbar.composer.press('Enter');
  await expect(toolbar.panel.locator('.ab-queued')).toBeVisible();
  await toolbar.composer.fill('half a thought');

  // What a dev server does when the agent changes a file it cannot swap in place.
  await page.reload();
  await toolbar.open();
  await expect(toolbar.composer).toHaveValue('half a thought');
  await expect(toolbar.panel.locator('.ab-queued').getByRole('status')).toHaveText('Sends after this reply: then the markdown');
  server.openGate();
  await expect(toolbar.userMessages).toHaveText(['a long one', 'then the markdown']);
  await expect(toolbar.doneReplies()).toHaveCount(2, { timeout: 30_000 });
  await expect(toolbar.composer).toHaveValue('half a thought');
});

test('a message typed while a tool call waits for approval says it goes after the reply, and goes once the call is answered', async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('read my selection');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();

  await toolbar.composer.fill('show me some markdown after that');
  await toolbar.composer.press('Enter');
  await expect(toolbar.panel.locator('.ab-queued')).toContainText('show me some markdown after that');
  await expect(toolbar.panel.locator('.ab-composer .ab-hint')).toHaveText('The reply waits for your answer to the tool call; your message goes after it');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(toolbar.userMessages.filter({ hasText: 'show me some markdown after that' })).toHaveCount(1, { timeout: 30_000 });
  await expect(toolbar.panel.locator('.ab-queued')).toBeHidden();
  await expect(toolbar.panel.locator('.ab-composer .ab-hint')).toBeHidden();
  await expect(toolbar.doneReplies().last()).toContainText('debounce', { timeout: 30_000 });
});
