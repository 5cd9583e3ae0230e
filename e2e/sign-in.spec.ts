/**
 * The demo page through the one-time address `agentbar serve` prints, as a user opens it.
 */
import { expect, test, Toolbar } from './fixtures.ts';

test('the printed sign-in address opens the page once and keeps that browser signed in', async ({ server, page, browser }) => {
  await page.goto(`${server.httpUrl}/`);
  await expect(page.getByRole('heading', { name: 'Sign in to agentbar' })).toBeVisible();
  expect(await page.content()).not.toContain(server.token);

  await expect.poll(() => /\/sign-in\/[\w-]+/.test(server.log)).toBe(true);
  const address = /http:\/\/\S+\/sign-in\/[\w-]+/.exec(server.log)![0];
  await page.goto(address);
  // The address bar ends on the plain page; the code is used up.
  expect(page.url()).toBe(`${server.httpUrl}/`);
  const toolbar = new Toolbar(page, server);
  await toolbar.open();
  await page.reload();
  await toolbar.open();
  expect(await page.content()).not.toContain(server.token);
  // What the cookie alone gets (the browser sends it to every port of 127.0.0.1) connects nothing.
  const byCookie = await page.context().request.get(`${server.httpUrl}/`);
  expect(byCookie.status()).toBe(200);
  const key = await page.evaluate(() => localStorage.getItem('agentbar:browser-key'));
  expect(key).toBeTruthy();
  expect(await byCookie.text()).not.toContain(key!);

  // A browser that lost its key is told how to sign in again.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByText('keeps no key for agentbar')).toBeVisible();

  // Another browser cannot reuse the address.
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await otherPage.goto(address);
    await expect(otherPage.getByText('already used or has expired')).toBeVisible();
  } finally {
    await other.close();
  }
});
