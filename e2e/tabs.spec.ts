/**
 * Two tabs on the same server: one shared active chat, so what happens in one shows in the other,
 * approvals included.
 */
import { expect, snap, test, Toolbar } from './fixtures.ts';

test('two tabs stay in sync, and an approval clicked in one updates the other', async ({ context, page, server }, testInfo) => {
  const a = new Toolbar(page, server);
  await a.start();
  await a.newChat();
  const b = new Toolbar(await context.newPage(), server);
  await b.start();
  await expect(b.activeChat).toHaveText('New chat');

  // A message from A shows in B, streamed reply included.
  await a.send('tab help');
  await expect(b.activeChat).toHaveText('tab help');
  await expect(b.userMessages).toHaveText(['tab help']);
  await expect(b.doneReplies()).toHaveCount(1);
  await expect(b.doneReplies().getByRole('table')).toContainText('skill review');

  // A tool call from A waits in both; B answers it; A sees the answer and the agent's reply.
  await a.send('tab selection');
  const cardA = a.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  const cardB = b.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  await expect(cardA.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(cardB.getByRole('button', { name: 'Approve' })).toBeVisible();
  await snap(b.page, testInfo, 'tabs-b-awaiting');
  await cardB.getByRole('button', { name: 'Approve' }).click();
  await expect(cardA.locator('.ab-s-done')).toHaveText('done');
  await expect(cardA.getByRole('button', { name: 'Approve' })).toBeHidden();
  await expect(cardA.locator('.ab-tool-answer')).toHaveText('Approved');
  await expect(a.doneReplies().last()).toContainText('No elements are selected');
  await expect(b.doneReplies().last()).toContainText('No elements are selected');
  await snap(a.page, testInfo, 'tabs-a-approved');

  // Chat changes go both ways: B creates and A follows; A renames and B sees it.
  await b.newChat();
  await expect(a.activeChat).toHaveText('New chat');
  await expect(a.chatTabs).toHaveText(['New chat', 'tab help']);
  await a.chats.getByRole('button', { name: 'Rename chat' }).click();
  await a.chats.getByRole('textbox', { name: 'Chat title' }).fill('Shared plan');
  await a.chats.getByRole('button', { name: 'Save title' }).click();
  await expect(b.activeChat).toHaveText('Shared plan');
  await b.chat('tab help').click();
  await expect(a.activeChat).toHaveText('tab help');
  await expect(a.doneReplies().last()).toContainText('No elements are selected');
});
