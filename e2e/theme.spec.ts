/**
 * The light and dark themes: the panel follows the system's colour scheme, the Theme button in the
 * header forces one (kept across a reload), and every text of a busy conversation passes axe's
 * colour-contrast rule in both.
 */
import { checkContrast } from './axe.ts';
import { expect, snap, test, type Toolbar } from './fixtures.ts';

const WHITE = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(20, 21, 24)';

// Tall: axe measures the text on the screen only, and a tall panel shows most of a conversation.
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 1300 } });

function themeButton(toolbar: Toolbar) {
  return toolbar.actions.getByRole('button', { name: /^Theme: / });
}

test('follows a light system; the Theme button forces dark, kept across a reload, and goes back to the system', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await expect(themeButton(toolbar)).toHaveAccessibleName('Theme: system');
  await expect(toolbar.panel).toHaveCSS('background-color', WHITE);
  await expect(toolbar.composer).toHaveCSS('color', 'rgb(28, 30, 35)');
  await snap(page, testInfo, 'theme-light');

  await themeButton(toolbar).click();
  await expect(themeButton(toolbar)).toHaveAccessibleName('Theme: light');
  await expect(toolbar.panel).toHaveCSS('background-color', WHITE);
  await themeButton(toolbar).click();
  await expect(themeButton(toolbar)).toHaveAccessibleName('Theme: dark');
  await expect(toolbar.panel).toHaveCSS('background-color', DARK_BG);
  await expect(toolbar.composer).toHaveCSS('color', 'rgb(231, 232, 236)');
  await snap(page, testInfo, 'theme-forced-dark');

  await page.reload();
  await expect(toolbar.status).toHaveText('Connected');
  await expect(themeButton(toolbar)).toHaveAccessibleName('Theme: dark');
  await expect(toolbar.panel).toHaveCSS('background-color', DARK_BG);

  // Back to the system's, which it follows as it changes.
  await themeButton(toolbar).click();
  await expect(themeButton(toolbar)).toHaveAccessibleName('Theme: system');
  await expect(toolbar.panel).toHaveCSS('background-color', WHITE);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(toolbar.panel).toHaveCSS('background-color', DARK_BG);
  // A forced light theme holds against a dark system.
  await themeButton(toolbar).click();
  await expect(toolbar.panel).toHaveCSS('background-color', WHITE);
});

test('every text of a conversation passes the colour-contrast rule in both themes', async ({ toolbar, page }, testInfo) => {
  await page.addInitScript(() => localStorage.setItem('agentbar:toolbar', JSON.stringify({ open: true, width: 560, height: 1200 })));
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.sendAndSettle('show me some markdown');
  await toolbar.sendAndSettle('think about it');
  await toolbar.sendAndSettle('docs');
  await toolbar.log.getByRole('group', { name: 'Tool call search_docs' }).locator('.ab-tool-head').click();
  await toolbar.send('fail');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, failed' })).toBeVisible();
  // Picks on a sent message, picks in the box, and an approval waiting.
  await toolbar.pickButton.click();
  await page.getByRole('button', { name: 'Filter orders' }).click();
  await page.getByRole('cell', { name: 'Ada Lovelace' }).click();
  await page.keyboard.press('Escape');
  await toolbar.send('read my selection');
  await expect(toolbar.log.getByRole('button', { name: 'Approve' })).toBeVisible();
  await toolbar.pickButton.click();
  await page.locator('#page-title').click();
  await page.getByRole('cell', { name: 'Grace Hopper' }).click();
  await page.keyboard.press('Escape');
  await toolbar.log.locator('details.ab-reasoning summary').first().click();

  // Each theme at both ends of the conversation: axe measures what is on the screen.
  for (const theme of ['light', 'dark']) {
    await expect(toolbar.panel).toHaveCSS('background-color', theme === 'light' ? WHITE : DARK_BG);
    let measured = 0;
    for (const end of ['top', 'bottom']) {
      await toolbar.log.evaluate((log, top) => log.scrollTo({ top: top ? 0 : log.scrollHeight, behavior: 'instant' }), end === 'top');
      await snap(page, testInfo, `contrast-${theme}-${end}`);
      const report = await checkContrast(page);
      expect(report.violations, `${theme} theme, ${end} of the chat`).toEqual([]);
      measured += report.measured;
    }
    // Dozens of texts measured, not one left undecided for each.
    expect(measured).toBeGreaterThan(80);
    // Light (the system's), then dark.
    await themeButton(toolbar).click();
    await themeButton(toolbar).click();
  }
});
