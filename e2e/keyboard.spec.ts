/**
 * The toolbar by keyboard alone: Tab reaches the launcher and, inside the panel, the composer;
 * Enter sends and Shift+Enter starts a new line; focus is always visible.
 */
import { expect, snap, test } from './fixtures.ts';

// The light theme's accent: Playwright's browser prefers a light colour scheme.
const ACCENT = 'rgb(41, 87, 204)';

test('works from the keyboard with visible focus', async ({ toolbar, page }, testInfo) => {
  await toolbar.goto();
  // The toolbar's host comes last in the document, so Tab goes from the page's last control to it.
  await page.getByRole('button', { name: 'Filter orders' }).focus();
  await page.keyboard.press('Tab');
  await expect(toolbar.launcher).toBeFocused();
  await expect(toolbar.launcher).toHaveCSS('outline-style', 'solid');
  await expect(toolbar.launcher).toHaveCSS('outline-color', ACCENT);
  await snap(page, testInfo, 'keyboard-launcher-focus');

  // Enter opens the panel with the composer focused; its frame shows the focus.
  await page.keyboard.press('Enter');
  await expect(toolbar.composer).toBeFocused();
  await expect(toolbar.status).toHaveText('Connected');
  const frame = toolbar.panel.locator('.ab-input');
  await expect(frame).toHaveCSS('border-top-color', ACCENT);

  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await expect(toolbar.composer).toHaveValue('first line\nsecond line');
  await expect(toolbar.userMessages).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(toolbar.composer).toHaveValue('');
  await expect(toolbar.userMessages).toHaveCount(1);
  expect(await toolbar.userMessages.first().locator('.ab-bubble').evaluate((el) => (el as HTMLElement).innerText)).toBe('first line\nsecond line');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await expect(toolbar.composer).toBeFocused();

  // Shift+Tab leaves the composer for the chat strip's last control, with a visible ring; Tab comes back.
  await page.keyboard.press('Shift+Tab');
  const ringed = await page.evaluate(() => {
    const el = document.querySelector('agentbar-toolbar')!.shadowRoot!.activeElement as HTMLElement | null;
    return !!el?.closest('.ab-chats') && getComputedStyle(el).outlineStyle === 'solid';
  });
  expect(ringed).toBe(true);
  await expect(frame).not.toHaveCSS('border-top-color', ACCENT);
  await page.keyboard.press('Tab');
  await expect(toolbar.composer).toBeFocused();

  // From the header, Tab walks through visible, focus-ringed controls to the composer.
  await toolbar.closeButton.focus();
  const visited: string[] = [];
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.querySelector('agentbar-toolbar')!.shadowRoot!.activeElement as HTMLElement | null;
      if (!el) return null;
      const style = getComputedStyle(el);
      return { label: el.getAttribute('aria-label') ?? el.textContent ?? el.localName, ring: style.outlineStyle !== 'none' || el.localName === 'textarea' };
    });
    expect(focused, `Tab ${i + 1} stays in the toolbar`).not.toBeNull();
    expect(focused!.ring, `${focused!.label} shows focus`).toBe(true);
    visited.push(focused!.label);
    if (focused!.label === 'Message') break;
  }
  // The message box comes before the messages: after the chat strip and its buttons.
  expect(visited).toEqual(['first line second line', 'Rename chat', 'Copy chat as Markdown', 'Delete chat', 'Message']);
  // Then the composer's controls, the log (a stop of its own) and each control in it.
  for (let i = 0; i < 8 && !visited.includes('Messages'); i++) {
    await page.keyboard.press('Tab');
    visited.push((await page.evaluate(() => document.querySelector('agentbar-toolbar')!.shadowRoot!.activeElement?.getAttribute('aria-label'))) ?? '');
  }
  expect(visited.at(-1)).toBe('Messages');
  await snap(page, testInfo, 'keyboard-composer');

  // Closing from the keyboard gives the focus back to the launcher.
  await toolbar.closeButton.focus();
  await page.keyboard.press('Enter');
  await expect(toolbar.launcher).toBeFocused();
  await expect(toolbar.panel).toBeHidden();
});
