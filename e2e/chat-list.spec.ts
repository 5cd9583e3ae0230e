/**
 * "All chats": every chat with its agents, last activity and size; search; open, rename and
 * delete any chat (not only the active one); the rows are one Tab stop driven by the arrow keys.
 */
import { expect, snap, test } from './fixtures.ts';
import { readState } from './wire-client.ts';

test('lists, searches, opens, renames and deletes chats, by mouse and by keyboard', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.ask('login form help');
  await toolbar.newChat();
  await toolbar.choose('Agent', 'demo/historian');
  await toolbar.ask('header colours', 'demo/historian');
  await toolbar.choose('Agent', 'demo/guide');
  await toolbar.ask('and the footer?');
  await toolbar.newChat();
  await toolbar.ask('pricing table help');

  const allChats = toolbar.actions.getByRole('button', { name: 'All chats' });
  await expect(allChats).toHaveAttribute('aria-expanded', 'false');
  await allChats.click();
  await expect(allChats).toHaveAttribute('aria-expanded', 'true');
  const list = toolbar.panel.getByRole('dialog', { name: 'All chats' });
  const search = list.getByRole('searchbox', { name: 'Search chats' });
  await expect(search).toBeFocused();
  const rows = list.getByRole('listitem');
  // Most recent first, each with the agents that answered, its size and when it was last active.
  await expect(rows.locator('.ab-chat-row-title')).toHaveText(['pricing table help', 'header colours', 'login form help']);
  await expect(rows.nth(1)).toContainText('4 messages · demo/historian, demo/guide');
  await expect(rows.nth(2)).toContainText('2 messages · demo/guide');
  await expect(rows.nth(0).locator('time')).toHaveText(/^\d{1,2}:\d{2}/);
  await expect(list.getByRole('button', { name: /pricing table help/ }).first()).toHaveAttribute('aria-current', 'true');
  await snap(page, testInfo, 'chat-list');

  // Search by title and by agent; nothing found says so.
  await search.fill('historian');
  await expect(rows.locator('.ab-chat-row-title')).toHaveText(['header colours']);
  await search.fill('help LOGIN');
  await expect(rows.locator('.ab-chat-row-title')).toHaveText(['login form help']);
  await search.fill('nothing like this');
  await expect(rows).toHaveCount(0);
  await expect(list.getByRole('status')).toHaveText('No chat matches “nothing like this”.');
  // Escape clears the search first, and closes the list only the second time.
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(rows).toHaveCount(3);

  // The rows are one Tab stop: Down from the search enters them, the arrows move, Tab leaves.
  await page.keyboard.press('ArrowDown');
  const openButton = (title: string) => list.getByRole('button', { name: new RegExp(`^${title}`) });
  await expect(openButton('pricing table help')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(openButton('header colours')).toBeFocused();
  await page.keyboard.press('End');
  await expect(openButton('login form help')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(list.getByRole('button', { name: 'Rename “login form help”' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect(openButton('header colours')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(search).toBeFocused(); // past the list in one step, round to the top (focus stays in the list)
  await page.keyboard.press('Shift+Tab');
  await expect(openButton('header colours')).toBeFocused(); // back to where it was in the rows

  // F2 renames a chat that is not the active one; Enter saves.
  await page.keyboard.press('F2');
  const titleBox = list.getByRole('textbox', { name: 'Chat title' });
  await expect(titleBox).toBeFocused();
  await titleBox.fill('Header colours, dark mode');
  await page.keyboard.press('Enter');
  await expect(openButton('Header colours, dark mode')).toBeFocused();
  await expect(toolbar.chat('Header colours, dark mode')).toBeVisible();
  await expect(toolbar.activeChat).toHaveText('pricing table help');
  // Renaming is activity: the chat moved to the top, and the focus went with it.
  await expect(rows.locator('.ab-chat-row-title')).toHaveText(['Header colours, dark mode', 'pricing table help', 'login form help']);

  // Delete on a row asks first; Cancel keeps it, Delete removes it and the next row takes the focus.
  await page.keyboard.press('End');
  await page.keyboard.press('Delete');
  const confirm = toolbar.panel.getByRole('dialog', { name: 'Delete chat?' });
  await expect(confirm).toContainText('“login form help” and its 2 messages will be deleted for good.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(list).toBeVisible();
  await expect(openButton('login form help')).toBeFocused();
  // By mouse this time, on a row that is not active.
  await list.getByRole('button', { name: 'Delete “login form help”' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(rows).toHaveCount(2);
  await expect(openButton('pricing table help')).toBeFocused();
  await expect(toolbar.chat('login form help')).toHaveCount(0);
  await expect(toolbar.activeChat).toHaveText('pricing table help');
  expect(Object.values((await readState(server)).chats).map((c) => c.title).sort()).toEqual(['Header colours, dark mode', 'pricing table help']);

  // Enter on a row opens that chat, closes the list and leaves the developer in the composer.
  await openButton('Header colours, dark mode').focus();
  await page.keyboard.press('Enter');
  await expect(list).toBeHidden();
  await expect(toolbar.activeChat).toHaveText('Header colours, dark mode');
  await expect(toolbar.userMessages).toHaveText(['header colours', 'and the footer?']);
  await expect(toolbar.composer).toBeFocused();

  // Escape closes the list (not the panel) and gives the focus back to its button.
  await allChats.click();
  await expect(list).toBeVisible();
  // The list takes the focus in the frame after it shows; an Escape before that is the panel's.
  await expect(list.getByRole('searchbox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(toolbar.panel).toBeVisible();
  await expect(allChats).toBeFocused();
  // The same with the focus still on the list's button (an Escape pressed as the list appears).
  await allChats.click();
  await expect(list).toBeVisible();
  await allChats.focus();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(toolbar.panel).toBeVisible();
});

test('the chat strip is one Tab stop, walked with the arrow keys', async ({ toolbar, page }) => {
  await toolbar.start();
  const tabs = toolbar.chatTabs;
  // The chats the test before left.
  await expect(tabs).toHaveCount(2);
  await toolbar.activeChat.focus();
  const active = await toolbar.activeChat.textContent();
  await page.keyboard.press('Home');
  await expect(tabs.first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(tabs.last()).toBeFocused();
  // Moving the focus does not switch chats; only one chat button is in the Tab order.
  await expect(toolbar.activeChat).toHaveText(active!);
  expect(await tabs.evaluateAll((els) => els.filter((el) => (el as HTMLElement).tabIndex === 0).length)).toBe(1);
});
