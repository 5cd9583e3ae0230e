/**
 * The toolbar and the page leave each other alone: aggressive page CSS does not restyle the
 * toolbar (shadow root + `all: initial` on the host), and the toolbar does not restyle, move or
 * mark up the page's elements.
 */
import type { Page } from '@playwright/test';
import { expect, snap, test } from './fixtures.ts';

// Everything a hostile stylesheet can aim at the toolbar. No `direction: rtl` on html or body: with
// horizontal overflow, Playwright's screenshots of an RTL document come out shifted (the page
// itself renders right), which would make the artifacts misleading.
const AGGRESSIVE_CSS = `
  * { color: red !important; font-size: 40px !important; font-family: serif !important;
      line-height: 3 !important; letter-spacing: 4px !important; text-transform: uppercase !important;
      box-sizing: content-box !important; }
  html, body { font-size: 40px !important; color: red !important; cursor: wait !important; }
  main, main * { direction: rtl !important; }
  button { display: none !important; }
  div, section, textarea, select { padding: 30px !important; margin: 20px !important;
      background: yellow !important; border: 5px dashed lime !important; }
  [role], [class^="ab-"], .ab-panel, .ab-launcher { display: none !important; }
  /* Aimed at the toolbar's host element itself. */
  agentbar-toolbar { direction: rtl !important; color: red !important; font: 40px serif !important;
      position: static !important; display: none !important; opacity: 0.1 !important; }
`;

const STYLE_PROPS = [
  'display', 'color', 'background-color', 'font-size', 'font-family', 'line-height', 'letter-spacing',
  'text-transform', 'padding-top', 'padding-left', 'margin-top', 'border-top-width', 'border-top-style',
  'box-sizing', 'direction', 'cursor', 'visibility',
] as const;

/** Computed styles and boxes of some of the toolbar's elements, read inside its shadow root. */
function measureToolbar(page: Page, selectors: string[]) {
  return page.evaluate(
    ({ selectors, props }) => {
      const root = document.querySelector('agentbar-toolbar')!.shadowRoot!;
      return selectors.map((selector) => {
        const el = root.querySelector(selector);
        if (!el) return { selector, missing: true };
        const style = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return {
          selector,
          box: [r.x, r.y, r.width, r.height].map(Math.round),
          style: Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)])),
        };
      });
    },
    { selectors, props: [...STYLE_PROPS] },
  );
}

/** Computed styles, boxes and markup of the page's own elements, and the document's size. */
function measurePage(page: Page) {
  return page.evaluate((props) => {
    const selectors = ['body', 'header', 'nav a.active', '#page-title', '.subtitle', '.card .value', '#orders', '#orders td', '.badge.pending', 'input[name="customer"]', 'select', 'button.primary'];
    return {
      elements: selectors.map((selector) => {
        const el = document.querySelector(selector)!;
        const style = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return {
          selector,
          box: [r.x, r.y, r.width, r.height],
          style: Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)])),
          outline: style.outlineStyle,
        };
      }),
      main: document.querySelector('main')!.outerHTML,
      htmlAttributes: [...document.documentElement.attributes].map((a) => `${a.name}=${a.value}`),
      bodyAttributes: [...document.body.attributes].map((a) => `${a.name}=${a.value}`),
      bodyChildren: [...document.body.children].map((c) => c.localName),
      scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight, window.scrollX, window.scrollY],
      stylesheets: document.styleSheets.length,
    };
  }, [...STYLE_PROPS, 'outline-style', 'cursor', 'user-select', 'pointer-events']);
}

test('page CSS does not change the toolbar', async ({ toolbar, page }, testInfo) => {
  await toolbar.goto();
  await expect(toolbar.launcher).toBeVisible();
  const launcherBefore = await measureToolbar(page, ['.ab-launcher']);
  await toolbar.open();
  await toolbar.send('help');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  const panelSelectors = ['.ab-panel', '.ab-header', '.ab-brand', '.ab-status [role="status"]', '.ab-tab-btn', '.ab-msg-user .ab-bubble', '.ab-msg-assistant .ab-md p', '.ab-md table td', '.ab-input textarea', '.ab-send', '.ab-select'];
  const before = await measureToolbar(page, panelSelectors);
  expect(before.filter((m) => 'missing' in m)).toEqual([]);
  await snap(page, testInfo, 'isolation-before');

  await page.addStyleTag({ content: AGGRESSIVE_CSS });
  // The page did get the CSS.
  await expect(page.locator('#page-title')).toHaveCSS('color', 'rgb(255, 0, 0)');
  await expect(page.locator('button.primary')).toBeHidden();

  expect(await measureToolbar(page, panelSelectors)).toEqual(before);
  await expect(toolbar.sendButton).toBeVisible();
  await expect(toolbar.composer).toBeVisible();
  await snap(page, testInfo, 'isolation-aggressive-css');

  await toolbar.closeButton.click();
  await expect(toolbar.launcher).toBeVisible();
  expect(await measureToolbar(page, ['.ab-launcher'])).toEqual(launcherBefore);
});

test('the toolbar does not change the page', async ({ toolbar, page, context }, testInfo) => {
  // The same page without the toolbar: its script answers empty.
  const bare = await context.newPage();
  await bare.route('**/toolbar.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  await bare.goto(toolbar.server.pageUrl);
  await expect(bare.locator('#page-title')).toBeVisible();
  expect(await bare.locator('agentbar-toolbar').count()).toBe(0);
  const without = await measurePage(bare);
  await bare.close();

  await toolbar.goto();
  await expect(toolbar.launcher).toBeVisible();
  expect(await measurePage(page)).toEqual(without);

  // Open, and pick an element while hovering another: outlines are the toolbar's, not the page's.
  await toolbar.open();
  expect(await measurePage(page)).toEqual(without);
  await toolbar.pickButton.click();
  await page.getByRole('cell', { name: 'Grace Hopper' }).click();
  await page.locator('#page-title').hover();
  await expect(page.locator('agentbar-toolbar .ab-outline.ab-hover')).toContainText('h1#page-title');
  await expect(toolbar.panel.getByRole('button', { name: 'Remove td “Grace Hopper”', exact: true })).toBeVisible();
  expect(await measurePage(page)).toEqual(without);
  await page.keyboard.press('Escape');
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  expect(await measurePage(page)).toEqual(without);
  // Last: Playwright's screenshot itself leaves `style=""` on the page's inputs (caret hiding).
  await snap(page, testInfo, 'isolation-picking');
});
