/**
 * axe-core over the toolbar's main states (launcher, empty panel, a conversation with markdown, a
 * code block, reasoning, tool cards and an approval, several chats and the list of them, a failed reply): no serious or
 * critical violations. Only the toolbar is checked; the demo page is not ours to fix here.
 */
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';

test('the launcher and the empty panel have no serious accessibility violations', async ({ toolbar, page }) => {
  await toolbar.goto();
  await expect(toolbar.launcher.or(toolbar.panel)).toBeVisible();
  if (await toolbar.panel.isVisible()) await toolbar.closeButton.click();
  expect(await seriousViolations(page)).toEqual([]);
  await toolbar.open();
  await toolbar.newChat();
  expect(await seriousViolations(page)).toEqual([]);
});

test('a conversation with markdown, code, reasoning, tools, an approval and a failure has none either', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  // Each reply must end before the next message (the agent answers one at a time).
  await toolbar.sendAndSettle('show me some markdown');
  await toolbar.sendAndSettle('think about it');
  await toolbar.sendAndSettle('docs');
  await toolbar.sendAndSettle('system');
  await toolbar.send('fail');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, failed' })).toBeVisible();
  await toolbar.send('read my selection');
  await expect(toolbar.log.getByRole('button', { name: 'Approve' })).toBeVisible();
  await toolbar.log.locator('details.ab-reasoning summary').first().click();
  expect(await seriousViolations(page)).toEqual([]);
  await toolbar.log.getByRole('button', { name: 'Approve' }).click();
  await expect(toolbar.doneReplies().last()).toContainText('No elements are selected');
  await toolbar.newChat();
  expect(await seriousViolations(page)).toEqual([]);

  // The list of all chats, with a search and the row buttons, and the delete confirmation over it.
  await toolbar.actions.getByRole('button', { name: 'All chats' }).click();
  const list = toolbar.panel.getByRole('dialog', { name: 'All chats' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await list.getByRole('searchbox', { name: 'Search chats' }).fill('no such chat');
  await expect(list.getByRole('status')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the check reaches inside the toolbar: a planted violation is reported', async ({ toolbar, page }) => {
  await toolbar.start();
  await page.evaluate(() => {
    const log = document.querySelector('agentbar-toolbar')!.shadowRoot!.querySelector('.ab-log')!;
    const button = document.createElement('button');
    button.className = 'planted';
    log.appendChild(button);
  });
  expect((await seriousViolations(page)).join('\n')).toMatch(/^button-name \(critical\)/m);
});
