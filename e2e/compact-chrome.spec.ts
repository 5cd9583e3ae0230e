/**
 * The panel's chrome says only what matters: the connection in words only when it is not
 * connected, the skill by its name, chats cut off at the strip's edge faded and counted, and one
 * row of alike icon buttons under each message.
 */
import type { Locator } from '@playwright/test';
import { checkContrast, seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';

function width(locator: Locator): Promise<number> {
  return locator.evaluate((el) => el.getBoundingClientRect().width);
}

test('shows the connection in words only when it is not connected, the dot always', async ({ toolbar, server }) => {
  await toolbar.start();
  const dot = toolbar.panel.locator('.ab-status .ab-dot');
  await expect(dot).toBeVisible();
  // Still announced to screen readers, but takes no room.
  await expect(toolbar.status).toHaveText('Connected');
  expect(await width(toolbar.status)).toBeLessThanOrEqual(1);
  await expect(toolbar.panel.locator('.ab-status')).toHaveAttribute('title', 'Connected');

  await server.stop();
  await expect(toolbar.status).toHaveText(/Reconnecting…|Offline/);
  expect(await width(toolbar.status)).toBeGreaterThan(20);
  await expect(dot).toBeVisible();
  await server.restart();
  await expect(toolbar.status).toHaveText('Connected', { timeout: 30_000 });
  expect(await width(toolbar.status)).toBeLessThanOrEqual(1);
});

test('names the skill in its badge, "Skill" in its tooltip and for screen readers', async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.ask('skill review');
  const skill = toolbar.panel.locator('.ab-skill');
  await expect(skill).toHaveText('Skill: review');
  await expect(skill.locator('.ab-skill-name')).toHaveText('review');
  await expect(skill).toHaveAttribute('title', /^Skill: review/);
  // What shows is the name alone: the badge is no wider than "review" and its padding.
  expect(await width(skill)).toBeLessThan((await width(skill.locator('.ab-skill-name'))) + 24);
});

test('fades the cut edge of the chat strip and counts the chats beyond it, which open the list', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  for (const title of ['help: checkout redesign', 'help: orders list', 'help: footer links', 'help: pricing tiers', 'help: billing emails']) {
    await toolbar.newChat();
    await toolbar.ask(title);
  }
  const strip = toolbar.panel.getByRole('group', { name: 'Chats' });
  // The newest chat is first and active: the cut is at the end.
  await expect(strip).toHaveClass(/ab-fade-end/);
  await expect(strip).not.toHaveClass(/ab-fade-start/);
  const more = toolbar.panel.getByRole('button', { name: /^\d+ more chats: show all chats$/ });
  await expect(more).toBeVisible();
  await expect(more).toHaveText(/^\+\d+$/);
  await snap(page, testInfo, 'tabs-overflow');

  // Scrolled to its end, the strip fades at its start instead, and still counts what is out of view.
  await strip.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(strip).toHaveClass(/ab-fade-start/);
  await expect(strip).not.toHaveClass(/ab-fade-end/);
  await expect(more).toBeVisible();

  // Picking a chat at the end keeps it in view.
  await toolbar.chatTabs.last().click();
  await expect(toolbar.activeChat).toBeInViewport({ ratio: 1 });

  await more.click();
  const list = toolbar.panel.getByRole('dialog', { name: 'All chats' });
  await expect(list).toBeVisible();
  await expect(list.getByRole('listitem')).not.toHaveCount(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(`shows one row of alike icon buttons under messages, each named, in the ${theme} theme`, async ({ toolbar, page }, testInfo) => {
    await page.emulateMedia({ colorScheme: theme });
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.ask('help');
    const reply = toolbar.doneReplies().last();
    await reply.hover();
    const buttons = reply.locator('.ab-msg-actions').getByRole('button');
    await expect(buttons).toHaveCount(2);
    await expect(buttons.nth(0)).toHaveAccessibleName('Regenerate');
    await expect(buttons.nth(1)).toHaveAccessibleName('Copy message');
    for (const button of await buttons.all()) {
      // An icon, no words; a tooltip; the size of its neighbours.
      await expect(button.locator('svg')).toHaveCount(1);
      await expect(button).toHaveText('');
      await expect(button).toHaveAttribute('title', /.+/);
      expect(await button.evaluate((el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height])).toEqual([24, 24]);
    }
    // Regenerate once: the versions ‹ 1/2 › join the same row.
    await buttons.nth(0).click();
    await expect(reply.getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
    await expect(toolbar.doneReplies()).toHaveCount(1);
    const row = toolbar.doneReplies().last().locator('.ab-msg-actions');
    await expect(row.getByRole('button', { name: 'Previous version' }).locator('svg')).toHaveCount(1);
    const user = toolbar.userMessages.last();
    await user.hover();
    await expect(user.locator('.ab-msg-actions').getByRole('button', { name: 'Edit' }).locator('svg')).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect((await checkContrast(page)).violations).toEqual([]);
    await snap(page, testInfo, `message-actions-${theme}`);
  });
}
