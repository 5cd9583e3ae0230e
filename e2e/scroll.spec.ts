/**
 * The message list follows a streaming reply while the developer is at the end, stays where they
 * scroll to (by keyboard too), and "Scroll to latest" brings them back.
 */
import { expect, test } from './fixtures.ts';

// Slow enough that the reply is still streaming through every step below, even on a busy machine.
test.use({ paceMs: 25 });

test('follows a streaming reply until scrolled up, then offers a way back', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.send('long, to scroll');
  const reply = toolbar.replies().last();
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('Step 8 of a long plan');
  const distanceFromEnd = () => toolbar.distanceFromEnd();
  const scrollTop = () => toolbar.log.evaluate((el) => el.scrollTop);
  // At the end, the list keeps up with the text.
  await expect.poll(distanceFromEnd).toBeLessThan(2);

  // Scrolling up from the keyboard (a smooth scroll in Chromium) while text keeps coming.
  await toolbar.log.focus();
  await page.keyboard.press('Home');
  const latest = toolbar.latestButton;
  await expect(latest).toBeVisible();
  // (Chromium may end a smooth scroll a few px short when the content grows meanwhile.)
  await expect.poll(scrollTop).toBeLessThan(60);
  await expect(reply).toContainText('Step 12 of a long plan');
  // The developer stays where they went while the reply grows.
  const where = await scrollTop();
  await expect(reply).toContainText('Step 15 of a long plan');
  expect(await scrollTop()).toBe(where);
  expect(await distanceFromEnd()).toBeGreaterThan(300);

  await latest.click();
  await expect(latest).toBeHidden();
  await expect.poll(distanceFromEnd).toBeLessThan(2);
  // And it follows again as the reply goes on.
  await expect(reply).toContainText('Step 19 of a long plan');
  await expect.poll(distanceFromEnd).toBeLessThan(2);
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
