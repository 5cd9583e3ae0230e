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
