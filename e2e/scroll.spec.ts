/**
 * The message list follows a streaming reply while the developer is at the end, stays where they
 * scroll to (by keyboard and touch too, and on a busy page), and "Scroll to latest" brings them back.
 */
import { expect, test } from './fixtures.ts';
import type { Toolbar } from './toolbar-page.ts';

/** Opens a chat, asks for the long demo reply and waits until `step` of it shows, the list at the end. */
async function streamLongReplyTo(toolbar: Toolbar, step: number) {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('long, to scroll');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText(`Step ${step} of a long plan`);
  await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
  return toolbar.replies().last();
}

/** How far the message list is scrolled from its top, in px. */
function scrollTopOf(toolbar: Toolbar): Promise<number> {
  return toolbar.log.evaluate((el) => el.scrollTop);
}

/** The list's scrollTop when it stays there for 200 ms (no smooth scroll or fling under way), else NaN. */
async function restingScrollTop(toolbar: Toolbar): Promise<number> {
  const before = await scrollTopOf(toolbar);
  await new Promise((done) => setTimeout(done, 200));
  return (await scrollTopOf(toolbar)) === before ? before : NaN;
}

// Slow enough that the reply is still streaming through every step below, even on a busy machine.
test.use({ paceMs: 25 });

test('follows a streaming reply until scrolled up, then offers a way back', async ({ toolbar, page }) => {
  // At the end, the list keeps up with the text; by Step 12 it can scroll by more than what counts
  // as the end (48 px).
  const reply = await streamLongReplyTo(toolbar, 12);
  const distanceFromEnd = () => toolbar.distanceFromEnd();
  const scrollTop = () => scrollTopOf(toolbar);

  // Scrolling up from the keyboard (a smooth scroll in Chromium) while text keeps coming.
  await toolbar.log.focus();
  await page.keyboard.press('Home');
  const latest = toolbar.latestButton;
  await expect(latest).toBeVisible();
  // (Chromium ends a smooth scroll short, by a few tens of px, when the content grows meanwhile.)
  await expect.poll(() => restingScrollTop(toolbar)).toBeLessThan(100);
  // The developer stays where they went while the reply grows.
  const where = await scrollTop();
  const away = await distanceFromEnd();
  await expect(reply).toContainText('Step 16 of a long plan');
  expect(await scrollTop()).toBe(where);
  expect(await distanceFromEnd()).toBeGreaterThan(away + 50);

  await latest.click();
  await expect(latest).toBeHidden();
  await expect.poll(distanceFromEnd).toBeLessThan(2);
  // And it follows again as the reply goes on.
  await expect(reply).toContainText('Step 21 of a long plan');
  await expect.poll(distanceFromEnd).toBeLessThan(2);
});

test('keeps a keyboard scroll up that a busy page starts late', async ({ toolbar }) => {
  const reply = await streamLongReplyTo(toolbar, 12);
  const scrollTop = () => scrollTopOf(toolbar);

  // A long task right after the key (a busy page, a loaded machine): the browser starts the
  // smooth scroll more than a second after it, while text keeps coming, and its first steps are
  // small, near the end. They are still the developer's, not layout moving the list. (Stalled on
  // the list itself, after the toolbar's own handler: the toolbar keeps its keys from the page.)
  await toolbar.log.evaluate((el) => {
    el.addEventListener('keydown', () => {
      const until = Date.now() + 1_500;
      while (Date.now() < until);
    }, { once: true });
  });
  await toolbar.log.focus();
  await toolbar.log.press('Home');
  await expect(toolbar.latestButton).toBeVisible();
  // Near the top, once the smooth scroll is over.
  await expect.poll(() => restingScrollTop(toolbar)).toBeLessThan(100);
  const where = await scrollTop();
  await expect(reply).toContainText('Step 16 of a long plan');
  expect(await scrollTop()).toBe(where);
  await expect(toolbar.latestButton).toBeVisible();
});

test('keeps following when a key moves focus out of the list without scrolling it', async ({ toolbar, page }) => {
  const reply = await streamLongReplyTo(toolbar, 8);

  await toolbar.log.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(toolbar.log).not.toBeFocused();
  // Steps later, well within the 5 s an up key waits for its scroll, the list is at the end.
  await expect(reply).toContainText('Step 10 of a long plan');
  await expect.poll(() => toolbar.distanceFromEnd(), { timeout: 1_500 }).toBeLessThan(2);
  await expect(toolbar.latestButton).toBeHidden();
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('stops following when the developer swipes the list up while a reply streams', async ({ toolbar, page }) => {
    const reply = await streamLongReplyTo(toolbar, 8);

    // Touch events through the browser's input pipeline, which scroll as a finger does: dragging
    // the list down, to see what is above.
    const box = (await toolbar.log.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const x = Math.round(box.x + box.width / 2);
    const y0 = Math.round(box.y + box.height / 3);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
    for (let step = 1; step <= 12; step++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y0 + step * 12 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
    await expect(toolbar.latestButton).toBeVisible();
    // Where the fling that follows the swipe stopped.
    await expect.poll(() => restingScrollTop(toolbar)).toBeGreaterThanOrEqual(0);
    const where = await scrollTopOf(toolbar);
    await expect(reply).toContainText('Step 12 of a long plan');
    expect(await scrollTopOf(toolbar)).toBe(where);
  });
});

test.describe('with a reply that has finished', () => {
  // The default pace: the long reply ends in a few seconds.
  test.use({ paceMs: 5 });

  test('stays where find in page or a screen reader brings an earlier message, with no wheel or key', async ({ toolbar }) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.ask('long, to scroll');
    const distanceFromEnd = () => toolbar.distanceFromEnd();
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    const latest = toolbar.latestButton;
    await expect(latest).toBeHidden();

    const frames = (n: number) => toolbar.log.evaluate((_, count) => new Promise<void>((done) => {
      let left = count;
      const tick = () => (--left === 0 ? done() : requestAnimationFrame(tick));
      requestAnimationFrame(tick);
    }), n);

    // A small move with no wheel or key behind it (a script showing the last reply's actions
    // whole) is not leaving the end: the list goes back to it.
    await toolbar.log.evaluate((el) => {
      el.scrollTop -= 20;
    });
    await frames(5);
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    await expect(latest).toBeHidden();

    // What find in page and assistive technology do: bring an element into view from outside the
    // page's input events.
    const question = toolbar.userMessages.first();
    await question.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await expect(latest).toBeVisible();
    // A few frames later the list is still there, not pulled back to the end.
    await frames(5);
    expect(await toolbar.log.evaluate((el) => el.scrollTop)).toBeLessThan(60);
    await expect(question).toBeInViewport();

    await latest.click();
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    await expect(latest).toBeHidden();
  });

  test('keeps the end of the last reply in view when the composer grows or the window shrinks', async ({ toolbar, page }) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.ask('long, to scroll');
    const distanceFromEnd = () => toolbar.distanceFromEnd();
    const height = () => toolbar.log.evaluate((el) => el.clientHeight);
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    const tall = await height();

    // A message of six lines makes the composer taller and the list shorter, from the bottom.
    await toolbar.composer.fill('one\ntwo\nthree\nfour\nfive\nsix');
    await expect.poll(height).toBeLessThan(tall - 40);
    await expect.poll(distanceFromEnd).toBeLessThan(2);

    await toolbar.composer.fill('');
    await expect.poll(height).toBe(tall);
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 500 });
    await expect.poll(height).toBeLessThan(tall - 40);
    await expect.poll(distanceFromEnd).toBeLessThan(2);
    await expect(toolbar.latestButton).toBeHidden();
  });
});

test.describe('a long chat', () => {
  test.use({ paceMs: 5 });

  test('scrolls its message list on the compositor, not by painting the list again', async ({ toolbar, page }) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.ask('long, to scroll');
    await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);

    // Chromium's layer tree (DevTools protocol): the list must have a scroll layer of its own.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: "document.querySelector('agentbar-toolbar').shadowRoot.querySelector('.ab-log')",
    });
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId! });
    let layers: { layerId: string; backendNodeId?: number }[] = [];
    cdp.on('LayerTree.layerTreeDidChange', (event) => {
      if (event.layers) layers = event.layers;
    });
    await cdp.send('LayerTree.enable');
    const reasonsOfList = async () => {
      // A scroll makes a new frame, and with it a layer tree report.
      await toolbar.log.evaluate((el) => (el.scrollTop -= 40));
      const reasons: string[] = [];
      for (const layer of layers.filter((l) => l.backendNodeId === node.backendNodeId)) {
        reasons.push(...((await cdp.send('LayerTree.compositingReasons', { layerId: layer.layerId })).compositingReasonIds ?? []));
      }
      return reasons;
    };
    await expect.poll(reasonsOfList).toContain('OverflowScrolling');
    await cdp.detach();
  });

  test('lets the browser scroll the list without waiting for the page (no blocking wheel or touch listener)', async ({ toolbar, page }) => {
    await toolbar.start();
    await toolbar.newChat();
    // The list and everything above it, up to the window: a blocking listener anywhere on the way
    // makes the browser wait for the main thread, busy with the stream, before it scrolls.
    const cdp = await page.context().newCDPSession(page);
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: `(() => {
        const chain = [];
        for (let n = document.querySelector('agentbar-toolbar').shadowRoot.querySelector('.ab-log'); n; n = n.parentNode ?? n.host) chain.push(n);
        return [...chain, window];
      })()`,
    });
    const { result: items } = await cdp.send('Runtime.getProperties', { objectId: result.objectId!, ownProperties: true });
    let listening = 0;
    const blocking: string[] = [];
    for (const item of items.filter((p) => /^\d+$/.test(p.name))) {
      const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: item.value!.objectId! });
      for (const l of listeners.filter((l) => ['wheel', 'mousewheel', 'touchstart', 'touchmove'].includes(l.type))) {
        listening++;
        if (!l.passive) blocking.push(`${l.type} on ${item.value!.description}`);
      }
    }
    // The list listens (a scroll the developer makes stops it following), without blocking.
    expect(listening).toBeGreaterThan(0);
    expect(blocking).toEqual([]);
    await cdp.detach();
  });

  test('lets the messages under the pointer rest while the wheel scrolls the list, then hover again', async ({ toolbar, page }) => {
    await toolbar.start();
    await toolbar.newChat();
    await toolbar.ask('long, to scroll');
    await expect.poll(() => toolbar.distanceFromEnd()).toBeLessThan(2);
    const box = (await toolbar.log.boundingBox())!;
    const point = [box.x + box.width / 2, box.y + box.height / 2] as const;
    await page.mouse.move(...point);
    // What the pointer is over, read as the list's wheeling state changes (no race with its timer).
    await toolbar.log.evaluate((log, [x, y]) => {
      const root = log.getRootNode() as ShadowRoot;
      const seen: string[] = [];
      (window as unknown as { wheelSeen: string[] }).wheelSeen = seen;
      const under = () => {
        const hit = root.elementFromPoint(x!, y!);
        return hit === log ? 'the list' : hit && log.contains(hit) ? 'a message' : 'something else';
      };
      seen.push(`at rest: ${under()}`);
      new MutationObserver(() => seen.push(`${log.hasAttribute('data-wheeling') ? 'wheeling' : 'at rest'}: ${under()}`)).observe(log, {
        attributes: true,
        attributeFilter: ['data-wheeling'],
      });
    }, point);
    await page.mouse.wheel(0, -200);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { wheelSeen: string[] }).wheelSeen))
      .toEqual(['at rest: a message', 'wheeling: the list', 'at rest: a message']);
    expect(await toolbar.distanceFromEnd()).toBeGreaterThan(100);
  });
});
