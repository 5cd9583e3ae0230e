/**
 * Chats from the toolbar: create, switch, rename, delete (after a confirmation), and the agent's
 * refusals shown with its reason.
 */
import { expect, snap, test } from './fixtures.ts';
import { readState } from './wire-client.ts';

test.beforeEach(async ({ toolbar }) => {
  await toolbar.start();
});

test('creates, switches, renames and deletes chats; deleting asks first', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.newChat();
  await toolbar.send('alpha help');
  await expect(toolbar.activeChat).toHaveText('alpha help');
  await expect(toolbar.doneReplies()).toHaveCount(1);

  await toolbar.newChat();
  await toolbar.send('beta help');
  await expect(toolbar.activeChat).toHaveText('beta help');
  await expect(toolbar.userMessages).toHaveText(['beta help']);
  await expect(toolbar.doneReplies()).toHaveCount(1);

  // Switch back: the other chat's messages show.
  await toolbar.chat('alpha help').click();
  await expect(toolbar.activeChat).toHaveText('alpha help');
  await expect(toolbar.userMessages).toHaveText(['alpha help']);
  await snap(page, testInfo, 'chats-switched');

  // Rename, cancelled: nothing changes.
  await toolbar.chats.getByRole('button', { name: 'Rename chat' }).click();
  await toolbar.chats.getByRole('textbox', { name: 'Chat title' }).fill('Not this');
  await toolbar.chats.getByRole('button', { name: 'Cancel rename' }).click();
  await expect(toolbar.activeChat).toHaveText('alpha help');

  // Rename, saved.
  await toolbar.chats.getByRole('button', { name: 'Rename chat' }).click();
  const title = toolbar.chats.getByRole('textbox', { name: 'Chat title' });
  await expect(title).toHaveValue('alpha help');
  await title.fill('Checkout redesign');
  await snap(page, testInfo, 'chats-renaming');
  await toolbar.chats.getByRole('button', { name: 'Save title' }).click();
  await expect(toolbar.activeChat).toHaveText('Checkout redesign');
  await expect(toolbar.chat('alpha help')).toHaveCount(0);

  // Delete, cancelled.
  await toolbar.chats.getByRole('button', { name: 'Delete chat' }).click();
  const dialog = toolbar.panel.getByRole('dialog', { name: 'Delete chat?' });
  await expect(dialog).toContainText('“Checkout redesign” and its 2 messages will be deleted for good.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await snap(page, testInfo, 'chats-delete-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(toolbar.chat('Checkout redesign')).toBeVisible();

  // Delete, confirmed: gone, and the most recent other chat opens.
  await toolbar.chats.getByRole('button', { name: 'Delete chat' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toolbar.chat('Checkout redesign')).toHaveCount(0);
  await expect(toolbar.activeChat).toHaveText('beta help');
  await expect(toolbar.userMessages).toHaveText(['beta help']);
  // The dialog and the chat's buttons are gone: focus goes to the chat that opened, not to the page.
  await expect(toolbar.activeChat).toBeFocused();

  // The server agrees.
  const state = await readState(server);
  const titles = Object.values(state.chats).map((c) => c.title);
  expect(titles).toContain('beta help');
  expect(titles).not.toContain('Checkout redesign');
  expect(state.chats[state.activeChatId!]?.title).toBe('beta help');

  // "+" twice makes one new chat, not two.
  await toolbar.newChat();
  const count = await toolbar.chatTabs.count();
  await toolbar.newChatButton.click();
  await expect(toolbar.chatTabs).toHaveCount(count);
  await expect(toolbar.activeChat).toHaveText('New chat');

  // With no active chat, the first message starts a new one.
  await toolbar.send('gamma help');
  await expect(toolbar.activeChat).toHaveText('gamma help');
  await expect(toolbar.doneReplies()).toHaveCount(1);
});

test.describe('while a long reply streams', () => {
  // The long reply holds after its first step: the run is still going after a screenshot and several clicks, however busy the machine (Stop ends it).
  test.use({ gate: true });

  test('refuses to switch or delete chats while the agent works, and shows its reason', async ({ toolbar, page }, testInfo) => {
    await toolbar.newChat();
    await toolbar.send('quiet help');
    await expect(toolbar.doneReplies()).toHaveCount(1);

    await toolbar.newChat();
    await toolbar.send('busy long');
    const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
    await expect(streaming).toContainText('Step 1 of a long plan');

    await toolbar.chat('quiet help').click();
    await expect(toolbar.alert).toHaveText('The agent demo/guide is working; press Stop before you switch chats');
    await expect(toolbar.activeChat).toHaveText('busy long');
    await expect(toolbar.userMessages).toHaveText(['busy long']);
    await expect(streaming).toBeVisible();
    await snap(page, testInfo, 'chats-switch-rejected');

    await toolbar.panel.getByRole('button', { name: 'Dismiss alert' }).click();
    await expect(toolbar.alert).toBeHidden();
    await toolbar.chats.getByRole('button', { name: 'Delete chat' }).click();
    await toolbar.panel.getByRole('dialog', { name: 'Delete chat?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toolbar.alert).toHaveText('The agent demo/guide is working; press Stop before you delete a chat');
    await expect(toolbar.activeChat).toHaveText('busy long');

    // Once stopped, the same switch goes through.
    await toolbar.stopButton.click();
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
    await toolbar.chat('quiet help').click();
    await expect(toolbar.activeChat).toHaveText('quiet help');
    await expect(toolbar.alert).toBeHidden();
    await expect(toolbar.userMessages).toHaveText(['quiet help']);
  });

  test('marks the chat the agent works in, and lets the user go back there to stop it', async ({ toolbar, page }, testInfo) => {
    await toolbar.newChat();
    await toolbar.send('working long');
    const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
    await expect(streaming).toContainText('Step 1 of a long plan');

    // A new chat is allowed while the agent works; the working chat keeps its marker.
    await toolbar.newChat();
    await expect(toolbar.chat('working long').locator('.ab-tab-running')).toBeVisible();
    await expect(toolbar.stopButton).toBeHidden();
    // The run blocks sending here too, so its Stop is here as well, named for where it runs.
    await expect(toolbar.panel.getByRole('button', { name: 'Stop demo/guide in “working long”' })).toBeVisible();
    await snap(page, testInfo, 'chats-running-elsewhere');

    await toolbar.chat('working long').click();
    await expect(toolbar.activeChat).toHaveText('working long');
    await toolbar.stopButton.click();
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
    await expect(toolbar.chat('working long').locator('.ab-tab-running')).toHaveCount(0);
  });
});

test('copies the whole chat as Markdown: who said what, the tool call and its result', async ({ toolbar, page, context }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await toolbar.newChat();
  // A new chat has nothing to copy.
  await expect(toolbar.chats.getByRole('button', { name: 'Copy chat as Markdown' })).toHaveCount(0);
  await toolbar.ask('markdown');
  await toolbar.ask('docs');
  const copy = toolbar.chats.getByRole('button', { name: 'Copy chat as Markdown' });
  await copy.click();
  await expect(toolbar.chats.getByRole('button', { name: 'Copied' })).toBeVisible();
  await snap(page, testInfo, 'chat-copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const lines = copied.split('\n');
  expect(lines[0]).toBe('# markdown');
  // Two turns each: the user's heading, then the agent's, with the local time.
  expect(lines.filter((l) => l.startsWith('## '))).toEqual([
    expect.stringMatching(/^## You · \d{4}-\d\d-\d\d \d\d:\d\d$/),
    expect.stringMatching(/^## demo\/guide · \d{4}-\d\d-\d\d \d\d:\d\d$/),
    expect.stringMatching(/^## You · /),
    expect.stringMatching(/^## demo\/guide · /),
  ]);
  // The page the message was sent from, the reply's code block as written, and the docs tool's call and result.
  expect(copied).toMatch(/^On http:\/\/127\.0\.0\.1:\d+\/ \(“[^”]+”\)\.$/m);
  expect(copied).toContain('```ts\nexport function debounce');
  expect(copied).toMatch(/\*\*Tool call\*\* `\w+`/);
  expect(copied).toMatch(/\*\*Tool result\*\* of `\w+`\n\n```/);
  // Back to the copy icon after a moment.
  await expect(copy).toBeVisible({ timeout: 5_000 });
});
