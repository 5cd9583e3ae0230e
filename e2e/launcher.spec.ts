/**
 * The launcher: `toolbar.js` draws the button on every page view without the panel's code, which
 * (`panel.js`) arrives after the page's load, on idle, or at once on a click or when the panel was
 * open before a reload.
 */
import type { Page, Route } from '@playwright/test';
import { expect, snap, test } from './fixtures.ts';

/** Holds every request for panel.js until `release()`; `requested` says whether one came. */
async function holdPanel(page: Page) {
  const held: Route[] = [];
  let release = false;
  await page.route('**/panel.js', async (route) => {
    if (release) return route.continue();
    held.push(route);
  });
  return {
    requested: () => held.length > 0,
    async release() {
      release = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** The launcher button's computed style, every property. */
function launcherStyle(page: Page) {
  return page.evaluate(() => {
    const button = document.querySelector('agentbar-toolbar')!.shadowRoot!.querySelector('.ab-launcher')!;
    const style = getComputedStyle(button);
    return Object.fromEntries(Array.from(style, (name) => [name, style.getPropertyValue(name)]));
  });
}

test('the page loads only the launcher; the panel follows after the load, on idle', async ({ page, toolbar }, testInfo) => {
  // What the page had fetched when its load event fired (this listener runs before the launcher's).
  await page.addInitScript(() => {
    addEventListener('load', () => {
      Reflect.set(window, '__fetchedAtLoad', performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    });
  });
  const panel = await holdPanel(page);
  await toolbar.goto();
  await expect(toolbar.launcher).toBeVisible();
  const fetched = await page.evaluate(() => Reflect.get(window, '__fetchedAtLoad') as string[]);
  expect(fetched).toContain('/toolbar.js');
  expect(fetched).not.toContain('/panel.js');
  // The launcher is whole without the panel's code: its name, its look, a tooltip.
  await expect(toolbar.launcher).toHaveAttribute('title', 'agentbar: connecting');
  await snap(page, testInfo, 'launcher');
  const before = await launcherStyle(page);

  await expect.poll(panel.requested).toBe(true);
  await panel.release();
  // Once the panel is there the launcher shows the connection, and looks the same otherwise.
  await expect(toolbar.launcher).toHaveAttribute('title', 'agentbar: connected');
  expect(await launcherStyle(page)).toEqual(before);
  await toolbar.launcher.click();
  await expect(toolbar.status).toHaveText('Connected');
  await expect(toolbar.composer).toBeFocused();
  await snap(page, testInfo, 'panel-opened');
});

test('a click before the panel is there loads it and opens it, with the focus in the message box', async ({ page, toolbar }) => {
  const panel = await holdPanel(page);
  await toolbar.goto();
  await toolbar.launcher.click();
  await expect.poll(panel.requested).toBe(true);
  await expect(toolbar.panel).toHaveCount(0);
  await panel.release();
  await expect(toolbar.status).toHaveText('Connected');
  await expect(toolbar.composer).toBeFocused();
  await expect(toolbar.launcher).toBeHidden();

  // Closed, the launcher is back and has the focus; a second open needs nothing more from the network.
  await toolbar.closeButton.click();
  await expect(toolbar.launcher).toBeFocused();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await toolbar.launcher.click();
  await expect(toolbar.status).toHaveText('Connected');
  expect(requests).toEqual([]);
});

test('a panel open before a reload opens again by itself, without the launcher showing meanwhile', async ({ page, toolbar }) => {
  await toolbar.start();
  const panel = await holdPanel(page);
  // A script the page is fetching holds its load event: wait for the document only.
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect.poll(panel.requested).toBe(true);
  // While its code is on the way, neither the launcher nor the panel: no flash of the button.
  await expect(toolbar.launcher).toBeHidden();
  await panel.release();
  await expect(toolbar.status).toHaveText('Connected');
  await expect(toolbar.launcher).toBeHidden();
  // Opened by the reload, not by the developer: the focus stays with the page.
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
});

test('where the panel cannot be loaded, the launcher says why, and the next click tries again', async ({ page, toolbar }) => {
  await page.route('**/panel.js', (route) => route.abort());
  await toolbar.goto();
  await toolbar.launcher.click();
  await expect(toolbar.launcher).toHaveAttribute('title', /^agentbar: the panel could not be loaded\. panel\.js could not be loaded from /);
  await page.unroute('**/panel.js');
  await toolbar.launcher.click();
  await expect(toolbar.status).toHaveText('Connected');
});
