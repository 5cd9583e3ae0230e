/**
 * Flaws a new user hit, each fixed and held here: Escape closes the panel, focus stays in the
 * toolbar after an approval, sending while scrolled up jumps to the end, text over the limit is
 * never cut silently, picked elements clear at once, a scrolling code block takes focus,
 * numbered lists from 10 up keep their numbers, and on a touch screen the message actions show,
 * Enter starts a new line, a tap picks an element and the resize corner follows a finger; a reply
 * running in another chat is named over the message box with Open and Stop, and the menus beside
 * Stop read whole.
 */
import { seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';
import type { Toolbar } from './toolbar-page.ts';

/** The element focused inside the toolbar's shadow root (null: focus left the toolbar). */
function focusedInToolbar(page: import('@playwright/test').Page) {
  return page.evaluate(() => {
    const el = document.querySelector('agentbar-toolbar')!.shadowRoot!.activeElement as HTMLElement | null;
    return el ? (el.getAttribute('aria-label') ?? el.localName) : null;
  });
}

/** The panel's size and its right and bottom edges (where it is anchored), in whole px. */
async function panelEdges(toolbar: Toolbar) {
  const box = (await toolbar.panel.boundingBox())!;
  return { width: Math.round(box.width), height: Math.round(box.height), right: Math.round(box.x + box.width), bottom: Math.round(box.y + box.height) };
}

test('Escape closes the panel and gives focus back to the launcher', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.composer.click();
  await page.keyboard.press('Escape');
  await expect(toolbar.panel).toBeHidden();
  await expect(toolbar.launcher).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toolbar.composer).toBeFocused();
  // Picking takes Escape first: it ends picking and leaves the panel open.
  await toolbar.pickButton.click();
  await page.keyboard.press('Escape');
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  await expect(toolbar.panel).toBeVisible();
});

/**
 * Fails when a menu on the row under the message box is narrower than its chosen option needs
 * (the row squeezed it to "A…" or "dem…").
 */
async function expectMenusWhole(panel: import('@playwright/test').Locator) {
  const menus = await panel.locator('.ab-input-row .ab-menu').evaluateAll((wrappers) =>
    wrappers.map((el) => {
      const wrapper = el as HTMLElement;
      const shown = wrapper.getBoundingClientRect().width;
      wrapper.style.flexShrink = '0';
      const needed = wrapper.getBoundingClientRect().width;
      wrapper.style.flexShrink = '';
      return { menu: wrapper.firstElementChild!.getAttribute('aria-label'), shown: Math.round(shown), needed: Math.round(needed) };
    }),
  );
  expect(menus.length).toBeGreaterThan(0);
  for (const m of menus) expect(m.shown, `${m.menu} menu: ${m.shown} px of the ${m.needed} it needs`).toBeGreaterThanOrEqual(m.needed);
}

test('keeps focus on the tool call after Approve or Reject, never on the page', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.send('read my selection');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  // Stop beside the Agent and Mode menus, in the panel's default width: both still read whole.
  await expect(toolbar.panel.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await expect(toolbar.panel.getByRole('combobox', { name: 'Mode' })).toBeVisible();
  await expectMenusWhole(toolbar.panel);
  await card.getByRole('button', { name: 'Approve' }).focus();
  await page.keyboard.press('Enter');
  await expect(card.locator('.ab-s-done')).toHaveText('done');
  await expect(card).toBeFocused();
  expect(await focusedInToolbar(page)).toBe('Tool call get_selected_elements');
  // The reply goes on after the call: a message sent before it ends is refused (busy), as it should be.
  await expect(toolbar.stopButton).toBeHidden();
  await toolbar.send('read my selection again');
  const second = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' }).last();
  await second.getByRole('button', { name: 'Reject' }).click();
  await expect(second.locator('.ab-s-denied')).toHaveText('rejected');
  await expect(second).toBeFocused();
});

test('sending while scrolled up jumps to the end', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  for (let i = 0; i < 4; i++) await toolbar.ask('help');
  await toolbar.log.hover();
  await page.mouse.wheel(0, -5000);
  await expect(toolbar.latestButton).toBeVisible();
  await toolbar.ask('help');
  await expect(toolbar.latestButton).toBeHidden();
  await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
});

test('says how far a message is over the limit instead of cutting it, and clears picked elements at once', async ({ toolbar, page }, testInfo) => {
  await toolbar.start();
  const long = 'x'.repeat(200_005);
  await toolbar.composer.fill(long);
  await expect(toolbar.composer).toHaveValue(long);
  await expect(toolbar.panel.locator('.ab-hint')).toHaveText('5 characters over the 200,000-character limit: shorten the message, or attach the text as a file');
  await expect(toolbar.sendButton).toBeDisabled();
  await toolbar.composer.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(toolbar.sendButton).toBeEnabled();
  await toolbar.composer.fill('');

  await toolbar.pickButton.click();
  await page.locator('#page-title').click();
  await page.getByRole('cell', { name: 'Ada Lovelace' }).click();
  await page.keyboard.press('Escape');
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(2);
  await snap(page, testInfo, 'picked-clear-all');
  await toolbar.panel.getByRole('button', { name: 'Clear all' }).click();
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(0);
  await expect(page.locator('agentbar-toolbar .ab-outline')).toHaveCount(0);
});

test('a code block is highlighted, takes keyboard focus and wraps on demand; list numbers from 10 up are not clipped; footnotes lead to their note', async ({ toolbar }) => {
  const grammars: string[] = [];
  toolbar.page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/lang/')) grammars.push(new URL(request.url()).pathname);
  });
  await toolbar.start();
  expect(grammars, 'no grammar before a code block shows').toEqual([]);
  const reply = await toolbar.ask('show me some markdown');
  const code = reply.locator('.ab-code pre');
  await expect(code).toHaveAttribute('tabindex', '0');
  await code.focus();
  await expect(code).toBeFocused();
  // Highlighted (TypeScript, with the one grammar it needs, loaded once), and long lines wrap on demand.
  await expect(code.locator('.ab-hl-keyword').first()).toHaveText('export');
  expect(grammars).toEqual(['/lang/js.js']);
  // The grammar's script does not stay in the page.
  expect(await toolbar.page.locator('script[src*="/lang/"]').count()).toBe(0);
  await expect(code.locator('code')).toHaveCSS('white-space', 'pre');
  await reply.getByRole('button', { name: 'Wrap' }).click();
  await expect(reply.getByRole('button', { name: 'Wrap' })).toHaveAttribute('aria-pressed', 'true');
  await expect(code.locator('code')).toHaveCSS('white-space', 'pre-wrap');
  // A list of twelve items in an existing reply's markdown container: "10." must fit its padding.
  const fits = await reply.locator('.ab-md').first().evaluate((md) => {
    const ol = document.createElement('ol');
    ol.start = 10;
    ol.innerHTML = '<li>ten</li><li>eleven</li>';
    md.appendChild(ol);
    const item = ol.firstElementChild as HTMLElement;
    const probe = document.createElement('span');
    probe.textContent = '10.';
    probe.style.font = getComputedStyle(item).font;
    probe.style.position = 'absolute';
    md.appendChild(probe);
    const needed = probe.getBoundingClientRect().width;
    const room = parseFloat(getComputedStyle(ol).paddingLeft);
    probe.remove();
    ol.remove();
    return { needed, room };
  });
  expect(fits.room).toBeGreaterThan(fits.needed + 4);

  // A footnote reference is numbered; following it shows and focuses its note at the end of the reply.
  const ref = reply.getByRole('button', { name: 'Footnote 1' });
  await expect(ref).toHaveText('1');
  const note = reply.getByRole('note', { name: 'Footnote 1' });
  await expect(note).toContainText("1.Lodash's debounce also has leading and maxWait options.");
  await ref.click();
  await expect(note).toBeFocused();
  await expect(note).toBeInViewport();
});

test('a grammar that cannot load leaves the code plain and whole', async ({ toolbar }) => {
  let refused = 0;
  await toolbar.page.route('**/lang/*.js', (route) => {
    refused++;
    return route.fulfill({ status: 404, body: 'Not found' });
  });
  await toolbar.start();
  const reply = await toolbar.ask('show me some markdown');
  const code = reply.locator('.ab-code pre code');
  await expect(code).toContainText('export function debounce');
  await expect.poll(() => refused).toBe(1);
  // Its error event has come and gone: the code is still whole, plain, and copyable.
  await toolbar.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  await expect(code).toContainText('export function debounce');
  expect(await code.locator('[class^="ab-hl-"]').count()).toBe(0);
  await expect(reply.getByRole('button', { name: 'Copy code' })).toBeVisible();
  expect(refused, 'not asked for again').toBe(1);
});

test.describe('while a long reply streams in another chat', () => {
  test.use({ gate: true });

  test('says where it works in a new chat, with a way back there and its Stop, which ends it', async ({ page, toolbar }, testInfo) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.send('working long');
    const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
    await expect(streaming).toContainText('Step 1 of a long plan');
    const stopHere = toolbar.panel.getByRole('button', { name: 'Stop', exact: true });
    await expect(stopHere).toBeVisible();
    const notice = toolbar.panel.locator('.ab-elsewhere');
    await expect(notice).toBeHidden();

    await toolbar.newChat();
    await expect(notice).toHaveText(/Working in working long/);
    await expect(notice.getByText('Working in')).toHaveAttribute('title', 'demo/guide is working in “working long”');
    await expect(stopHere).toBeHidden();
    const stopThere = notice.getByRole('button', { name: 'Stop demo/guide in “working long”' });
    await expect(stopThere).toHaveText('Stop');
    // The row under the message box keeps its menus readable: none is cut short.
    await expectMenusWhole(toolbar.panel);
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, testInfo, 'stop-elsewhere');

    await stopThere.click();
    await expect(notice).toBeHidden();
    await toolbar.chat('working long').click();
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();

    // Open goes back to a reply streaming in another chat, and its Stop is in the row again.
    await toolbar.newChat();
    await toolbar.send('long again');
    await expect(streaming).toContainText('Step 1 of a long plan');
    await toolbar.newChat();
    await notice.getByRole('button', { name: 'Open “long again”' }).click();
    await expect(toolbar.activeChat).toHaveText('long again');
    await expect(streaming).toBeVisible();
    await expect(notice).toBeHidden();
    await stopHere.click();
    await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
  });
});

test('says the server refused a wrong token instead of waiting for ever', async ({ page, server, toolbar }, testInfo) => {
  // The page's own config is ignored: this toolbar carries a token from "an earlier start".
  await page.addInitScript((url) => {
    Object.defineProperty(window, '__AGENTBAR__', { get: () => ({ url, token: 'an-old-token-from-yesterday' }), set() {}, configurable: false });
  }, server.wsUrl);
  await page.goto(server.pageUrl);
  await expect(toolbar.launcher.or(toolbar.panel)).toBeVisible();
  if (await toolbar.launcher.isVisible()) await toolbar.launcher.click();
  await expect(toolbar.status).toHaveText('Offline', { timeout: 30_000 });
  await expect(toolbar.panel.locator('.ab-hint')).toHaveText(/^The agent server is running but refused this page: its token is wrong or from an earlier start/, { timeout: 30_000 });
  await snap(page, testInfo, 'token-refused');
  // The server says so too (once a minute), without the token.
  await expect.poll(() => server.log).toContain('Refused a WebSocket: Missing or wrong token');
  expect(server.log).not.toContain('an-old-token-from-yesterday');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  /** Whether the element is wholly inside what the user sees (the visual viewport). */
  function onScreen(locator: import('@playwright/test').Locator) {
    return locator.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const vv = window.visualViewport!;
      return r.left >= vv.offsetLeft && r.top >= vv.offsetTop && r.right <= vv.offsetLeft + vv.width + 0.5 && r.bottom <= vv.offsetTop + vv.height + 0.5;
    });
  }

  test('keeps the launcher, the panel and Send on the screen when the page is wider than it', async ({ toolbar, page }, testInfo) => {
    await toolbar.goto();
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.style.cssText = 'width: 1600px; height: 20px; background: #c33';
      document.body.appendChild(wide);
    });
    // The page is now four screens wide: the layout viewport grew, the screen did not.
    expect(await page.evaluate(() => window.innerWidth)).toBeGreaterThan(1000);
    await expect.poll(() => onScreen(toolbar.launcher)).toBe(true);
    await toolbar.launcher.click();
    await expect(toolbar.status).toHaveText('Connected');
    await expect.poll(() => onScreen(toolbar.panel)).toBe(true);
    expect(await onScreen(toolbar.sendButton)).toBe(true);
    await snap(page, testInfo, 'phone-wide-page');
    // Scrolled sideways, it follows the screen.
    await page.evaluate(() => window.scrollTo(600, 0));
    await expect.poll(() => onScreen(toolbar.panel)).toBe(true);
  });

  test('shows the message actions without a hover, which a finger never makes', async ({ toolbar, page }, testInfo) => {
    await toolbar.start();
    await toolbar.newChat();
    const reply = await toolbar.ask('help');
    const opacity = (locator: import('@playwright/test').Locator) => locator.evaluate((el) => getComputedStyle(el).opacity);
    // An invisible Regenerate would still take a tap, and send the question again unseen.
    expect(await opacity(reply.getByRole('button', { name: 'Regenerate' }))).toBe('1');
    expect(await opacity(reply.getByRole('button', { name: 'Copy message' }))).toBe('1');
    expect(await opacity(toolbar.userMessages.last().getByRole('button', { name: 'Edit' }))).toBe('1');
    await snap(page, testInfo, 'phone-message-actions');
  });

  test('Enter starts a new line, which a phone keyboard cannot do with Shift, and Send sends', async ({ toolbar, page }) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.composer.tap();
    await page.keyboard.type('first line');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second line');
    await expect(toolbar.composer).toHaveValue('first line\nsecond line');
    await expect(toolbar.userMessages).toHaveCount(0);
    await toolbar.sendButton.tap();
    await expect(toolbar.userMessages.last()).toContainText('first line\nsecond line');
  });

  test('picks an element with a tap, and the page never sees the tap', async ({ toolbar, page }) => {
    await toolbar.start();
    await page.evaluate(() => {
      const w = window as unknown as { pageTouches: string[] };
      w.pageTouches = [];
      for (const type of ['touchend', 'click']) document.addEventListener(type, (e) => {
        if ((e.target as Element).localName !== 'agentbar-toolbar') w.pageTouches.push(type);
      });
    });
    await toolbar.pickButton.tap();
    await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'true');
    // No Escape key on a phone: the hint says how to finish.
    await expect(toolbar.panel).toContainText('Tap elements on the page to select them, then tap “Pick elements” again to finish.');
    await page.locator('#page-title').tap();
    await expect(toolbar.panel.getByRole('button', { name: 'Remove h1#page-title' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { pageTouches: string[] }).pageTouches)).toEqual([]);
    await toolbar.pickButton.tap();
    await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  });

  test('resizes the panel with a finger on its corner, on a tablet (a phone has the full-screen sheet)', async ({ toolbar, page }) => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await toolbar.start();
    const opacity = await toolbar.panel.getByRole('button', { name: 'Resize panel' }).evaluate((el) => getComputedStyle(el).opacity);
    // Touch has no hover to show it: it stays visible.
    expect(Number(opacity)).toBeGreaterThan(0.5);
    const before = await panelEdges(toolbar);
    const corner = (await toolbar.panel.getByRole('button', { name: 'Resize panel' }).boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', dy: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: corner.x + 9, y: corner.y + 9 + dy }] });
    await touch('touchStart', 0);
    for (let dy = 20; dy <= 100; dy += 20) await touch('touchMove', dy);
    await touch('touchEnd', 100);
    // Anchored at its bottom-right corner: dragging the top-left corner down 100 px takes 100 off.
    await expect.poll(async () => (await panelEdges(toolbar)).height).toBe(before.height - 100);
    expect((await panelEdges(toolbar)).bottom).toBe(before.bottom);
  });
});

test('resizes the panel from its top-left corner, with the mouse or the arrow keys, and keeps the size', async ({ toolbar, page }) => {
  await toolbar.start();
  const corner = toolbar.panel.getByRole('button', { name: 'Resize panel' });
  const size = () => panelEdges(toolbar);
  const before = await size();
  const at = (await corner.boundingBox())!;
  await page.mouse.move(at.x + 9, at.y + 9);
  await page.mouse.down();
  await page.mouse.move(at.x - 51, at.y - 31, { steps: 4 });
  await page.mouse.up();
  expect(await size()).toEqual({ ...before, width: before.width + 60, height: before.height + 40 });
  await corner.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const after = { ...before, width: before.width + 36, height: before.height + 16 };
  expect(await size()).toEqual(after);
  await page.reload();
  await expect(toolbar.status).toHaveText('Connected');
  expect(await size()).toEqual(after);
});

test.describe('while the agent thinks', () => {
  // The reasoning holds after its first sentence until the gate opens.
  test.use({ gate: true });

  test('shows a live preview of its reasoning, then how long it thought', async ({ server, toolbar, page }, testInfo) => {
    await toolbar.start();
    await toolbar.send('think first');
    const reasoning = toolbar.log.locator('details.ab-reasoning').last();
    await expect(reasoning.locator('summary')).toContainText('Thinking…');
    await expect(reasoning.locator('.ab-reasoning-preview')).toContainText('The user wants');
    await snap(page, testInfo, 'reasoning-live');
    server.openGate();
    await expect(reasoning.locator('summary')).toHaveText(/^Thought for \d+ s$/);
    await expect(reasoning.locator('.ab-reasoning-preview')).toHaveCount(0);
  });
});

test('copies a whole message, shows its time on hover, and folds a very long one behind "Show more"', async ({ toolbar, page, context }, testInfo) => {
  await toolbar.start();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await toolbar.newChat();
  const reply = await toolbar.ask('show me some markdown');
  await reply.hover();
  await expect(reply.locator('time.ab-time')).toBeVisible();
  expect(await reply.locator('time.ab-time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  await reply.getByRole('button', { name: 'Copy message' }).click();
  await expect(reply.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('```');

  const long = Array.from({ length: 80 }, (_, i) => `row ${i + 1} of a very big paste`).join('\n');
  await toolbar.send(long);
  const mine = toolbar.userMessages.last();
  const more = mine.getByRole('button', { name: 'Show more' });
  // Until the guide's answer has ended: while it streams, the list follows it and moves the button
  // between the moment a click aims and the moment it lands.
  await expect(toolbar.doneReplies()).toHaveCount(2);
  await expect(more).toBeVisible();
  expect(await mine.locator('.ab-collapsible').evaluate((el) => el.clientHeight)).toBeLessThanOrEqual(420);
  await snap(page, testInfo, 'long-message-folded');
  await more.click();
  await expect(mine.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  expect(await mine.locator('.ab-collapsible').evaluate((el) => el.clientHeight)).toBeGreaterThan(640);
});

test('copies where the page has no Clipboard API, as on plain http from another address', async ({ toolbar, page, context }) => {
  // A page from http://192.168.1.20:5173 (vite --host, a phone on the LAN) is not a secure
  // context: it has no navigator.clipboard. The copy buttons then copy the older way.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }));
  await toolbar.start();
  expect(await page.evaluate(() => typeof navigator.clipboard)).toBe('undefined');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await toolbar.newChat();
  const reply = await toolbar.ask('markdown');
  // A second tab of the same page, with the Clipboard API, reads what was copied.
  const reader = await context.newPage();
  await reader.goto(page.url());
  const readClipboard = async () => {
    await reader.bringToFront();
    const text = await reader.evaluate(() => navigator.clipboard.readText());
    await page.bringToFront();
    return text;
  };

  await reply.hover();
  const copyMessage = reply.getByRole('button', { name: 'Copy message' });
  await copyMessage.click();
  await expect(reply.getByRole('button', { name: 'Copied' })).toBeVisible();
  // Focus stays on the button, not on the text box the copy went through.
  await expect(reply.getByRole('button', { name: 'Copied' })).toBeFocused();
  expect(await readClipboard()).toContain('Here is a small **TypeScript** helper');

  await reply.getByRole('button', { name: 'Copy code' }).click();
  await expect(reply.getByRole('button', { name: 'Copy code' })).toContainText('Copied');
  expect(await readClipboard()).toMatch(/^export function debounce/);

  await toolbar.chats.getByRole('button', { name: 'Copy chat as Markdown' }).click();
  expect(await readClipboard()).toMatch(/^# markdown\n\n## You · /);
  // Nothing of the copying is left in the toolbar.
  expect(await page.evaluate(() => document.querySelector('agentbar-toolbar')!.shadowRoot!.querySelectorAll('textarea[aria-hidden]').length)).toBe(0);
});

test('retries a failed reply, regenerates the last one, and puts a message back in the box to edit', async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('fail on purpose');
  const failed = toolbar.log.getByRole('article', { name: 'demo/guide, failed' });
  await expect(failed).toBeVisible();
  // Retry shows without a hover, at the start of the reply's row (not past the hidden copy button).
  const retry = failed.getByRole('button', { name: 'Retry' });
  await toolbar.composer.hover();
  await expect(retry).toHaveCSS('opacity', '1');
  await expect(failed.getByRole('button', { name: 'Copy message' })).toHaveCSS('opacity', '0');
  expect((await retry.boundingBox())!.x - (await failed.boundingBox())!.x).toBeLessThan(2);
  // Retry answers the question again as a new version of the reply (versions.spec.ts), in its place.
  await retry.click();
  await expect(toolbar.log.getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await expect(toolbar.userMessages).toHaveText(['fail on purpose']);
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, failed' })).toHaveCount(1);

  await toolbar.ask('help');
  const last = toolbar.doneReplies().last();
  await last.hover();
  await last.getByRole('button', { name: 'Regenerate' }).click();
  await expect(toolbar.log.getByRole('group', { name: 'Version 2 of 2' })).toHaveCount(2);
  await expect(toolbar.userMessages).toHaveCount(2);
  await expect(toolbar.doneReplies()).toHaveCount(1);
  // Only the last reply offers Regenerate.
  await expect(toolbar.log.getByRole('button', { name: 'Regenerate' })).toHaveCount(1);

  const first = toolbar.userMessages.first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  await expect(toolbar.composer).toHaveValue('fail on purpose');
  await expect(toolbar.composer).toBeFocused();

  // What was being typed is kept, after the message put back: setting the box clears its undo.
  await toolbar.composer.fill('and also check the footer');
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  await expect(toolbar.composer).toHaveValue('fail on purpose\n\nand also check the footer');
  // The same message again changes nothing.
  await toolbar.composer.fill('fail on purpose');
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  await expect(toolbar.composer).toHaveValue('fail on purpose');
});

test('the Enter or Escape that ends an input method composition neither sends nor closes (Safari sends keyCode 229)', async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.composer.fill('にほんご');
  const press = (key: string) =>
    toolbar.composer.evaluate((box, k) => box.dispatchEvent(new KeyboardEvent('keydown', { key: k, keyCode: 229, bubbles: true, composed: true, cancelable: true })), key);
  await press('Enter');
  await press('Escape');
  await expect(toolbar.panel).toBeVisible();
  await expect(toolbar.composer).toHaveValue('にほんご');
  await expect(toolbar.userMessages).toHaveCount(0);
  // A plain Enter still sends.
  await toolbar.composer.press('Enter');
  await expect(toolbar.userMessages).toHaveText(['にほんご']);
});
