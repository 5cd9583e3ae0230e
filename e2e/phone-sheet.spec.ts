/**
 * On a phone the panel is a sheet over the whole screen, the launcher keeps small and clear of the
 * page's corner, and picking steps the sheet down to its message box with outlines never over it.
 */
import type { Locator, Page } from '@playwright/test';
import { checkContrast, seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

function box(locator: Locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: theme });
}

for (const theme of ['light', 'dark'] as const) {
  test(`the panel is a full-screen sheet with a readable skill badge (${theme})`, async ({ toolbar, page }, testInfo) => {
    await setTheme(page, theme);
    await toolbar.goto();
    const launcher = await box(toolbar.launcher);
    expect(launcher.width).toBeLessThanOrEqual(40);
    expect(390 - launcher.right).toBeLessThanOrEqual(12);
    await snap(page, testInfo, `phone-launcher-${theme}`);
    await toolbar.open();
    expect(await box(toolbar.panel)).toEqual({ left: 0, top: 0, right: 390, bottom: 844, width: 390, height: 844 });
    await expect(toolbar.panel).toHaveCSS('border-radius', '0px');
    await expect(toolbar.panel.getByRole('button', { name: 'Resize panel' })).toBeHidden();

    await toolbar.newChat();
    await toolbar.ask('skill review');
    const skill = toolbar.panel.locator('.ab-skill');
    await expect(skill).toHaveText('Skill: review');
    // The whole badge shows: it is not cut to "S…".
    expect(await skill.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect((await checkContrast(page)).violations).toEqual([]);
    await snap(page, testInfo, `phone-sheet-${theme}`);
  });
}

test('keeps its content inside the safe areas of a notched phone', async ({ toolbar, page }) => {
  await toolbar.start();
  // What a page with viewport-fit=cover gets on a notched phone: env() cannot be set from a test, so the sheet's padding is read.
  const padding = await toolbar.panel.evaluate((el) => getComputedStyle(el).paddingTop);
  expect(padding).toBe('0px');
  const rule = await toolbar.panel.evaluate((el) => {
    const sheet = (el.getRootNode() as ShadowRoot).adoptedStyleSheets.length ? null : [...(el.getRootNode() as ShadowRoot).querySelectorAll('style')].map((s) => s.textContent).join('');
    return sheet;
  });
  expect(rule).toContain('env(safe-area-inset-top');
  expect(rule).toContain('env(safe-area-inset-bottom');
});

test('picking steps the sheet down to its message box, and clears the highlight after each pick', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  await toolbar.pickButton.tap();
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'true');
  // The page shows above the message box, where a finger can pick from it.
  await expect(toolbar.log).toBeHidden();
  const sheet = await box(toolbar.panel);
  expect(sheet.bottom).toBe(844);
  expect(sheet.height).toBeLessThan(300);
  const outlines = page.locator('agentbar-toolbar .ab-outline');
  await page.locator('#page-title').dispatchEvent('pointermove');
  await expect(outlines).toHaveCount(1);
  await page.locator('#page-title').tap();
  await expect(toolbar.panel.getByRole('button', { name: 'Remove h1#page-title' })).toBeVisible();
  // Only the pick's own outline: the hover one went with the tap.
  await expect(outlines).toHaveCount(1);
  await expect(outlines).toHaveClass(/ab-picked/);
  // An outline is drawn under the panel, never over its controls.
  const z = await page.evaluate(() => {
    const root = document.querySelector('agentbar-toolbar')!.shadowRoot!;
    return [root.querySelector('.ab-panel')!, root.querySelector('.ab-outline')!].map((el) => Number(getComputedStyle(el).zIndex));
  });
  expect(z[0]).toBeGreaterThan(z[1]!);
  await snap(page, testInfo, 'phone-picking');
  await toolbar.pickButton.tap();
  await expect(toolbar.log).toBeVisible();
  await expect(outlines).toHaveCount(0);
  expect((await box(toolbar.panel)).top).toBe(0);
});
