/**
 * The composer's menus from the keyboard: the `/` list of commands, and the Agent and Mode menus
 * with each option's description shown; and a Tab order that reaches the message box early.
 */
import { checkContrast, seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';

/** The accessible name (or tag) of what has the focus inside the toolbar. */
function focusedName(page: import('@playwright/test').Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.querySelector('agentbar-toolbar')!.shadowRoot!.activeElement as HTMLElement | null;
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? el.localName) : null;
  });
}

test('the / list works from the keyboard, is a Tab stop, and a command sent alone does not title the chat', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.composer.focus();
  await page.keyboard.type('/');
  const list = toolbar.panel.getByRole('listbox', { name: 'Commands of demo/guide' });
  await expect(list).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, 'slash-menu');

  // Shift+Tab reaches the list itself; the arrow keys move in it and Enter puts the command in the box.
  await page.keyboard.press('Shift+Tab');
  await expect(list).toBeFocused();
  const think = list.getByRole('option', { name: /^\/think\b/ });
  for (let i = 0; i < 10 && (await think.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
  await expect(think).toHaveAttribute('aria-selected', 'true');
  await expect(list).toHaveAttribute('aria-activedescendant', (await think.getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(toolbar.composer).toHaveValue('/think ');
  await expect(toolbar.composer).toBeFocused();
  await expect(list).toBeHidden();
  await expect(toolbar.activeChat).toHaveText('New chat');

  // Escape closes the list, not the panel.
  await toolbar.composer.fill('/th');
  await expect(list).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(toolbar.panel).toBeVisible();

  // Sent, the command does its work and leaves the title alone; the first message with words names the chat.
  await toolbar.composer.fill('/think');
  await page.keyboard.press('Enter');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await expect(toolbar.activeChat).toHaveText('New chat');
  await toolbar.ask('help');
  await expect(toolbar.activeChat).toHaveText('help');
});

test('the Agent and Mode menus show what each option does and work from the keyboard', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  const mode = toolbar.menu('Mode');
  await expect(mode).toHaveText('Ask first');
  await mode.focus();
  await page.keyboard.press('ArrowDown');
  await expect(mode).toHaveAttribute('aria-expanded', 'true');
  const modes = toolbar.panel.getByRole('listbox', { name: 'Mode' });
  await expect(modes.getByRole('option')).toHaveCount(2);
  // Each option's description is on the screen, not in a tooltip.
  for (const option of await modes.getByRole('option').all()) await expect(option.locator('.ab-menu-desc')).toBeVisible();
  await expect(modes.getByRole('option', { selected: true })).toContainText('Ask first');
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, 'mode-menu-open');
  // The contrast check moves the toolbar in the page, which takes the focus away and closes the menu.
  expect((await checkContrast(page)).violations).toEqual([]);
  await mode.focus();
  await page.keyboard.press('ArrowDown');
  await expect(modes).toBeVisible();

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(modes).toBeHidden();
  await expect(mode).toHaveText('Trusting');
  await expect(mode).toBeFocused();
  // Escape closes an open menu and leaves the choice and the panel as they were.
  await page.keyboard.press('Enter');
  await expect(modes).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modes).toBeHidden();
  await expect(mode).toHaveText('Trusting');
  await expect(toolbar.panel).toBeVisible();

  const agent = toolbar.menu('Agent');
  await agent.focus();
  await page.keyboard.press('Enter');
  const agents = toolbar.panel.getByRole('listbox', { name: 'Agent' });
  await expect(agents.getByRole('option')).toHaveCount(3);
  await expect(agents.getByRole('option', { name: /^demo\/historian/ })).toContainText('history');
  // End stops at the last agent that can be picked, past the unimplemented planner.
  await page.keyboard.press('End');
  await expect(agent).toHaveAttribute('aria-activedescendant', (await agents.getByRole('option').nth(1).getAttribute('id'))!);
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, 'agent-menu-open');
  await page.keyboard.press('Enter');
  await expect(agent).toHaveText('demo/historian');
  await expect(toolbar.panel.getByRole('combobox', { name: 'Mode' })).toHaveCount(0);
});

test('Tab reaches the message box within a few stops of the header, and the resize corner last', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  for (const text of ['help', 'markdown', 'docs']) await toolbar.ask(text);
  await toolbar.actions.getByRole('button', { name: 'All chats' }).focus();
  const stops: (string | null)[] = [];
  for (let i = 0; i < 12 && stops.at(-1) !== 'Message'; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focusedName(page));
  }
  expect(stops.at(-1)).toBe('Message');
  expect(stops.length).toBeLessThanOrEqual(9);
  expect(stops).not.toContain('Resize panel');
  // On through the composer's controls and every message's: the resize corner is the panel's last stop.
  for (let i = 0; i < 80 && stops.at(-1) !== null; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focusedName(page));
  }
  expect(stops.at(-2)).toBe('Resize panel');
});
