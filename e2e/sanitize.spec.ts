/**
 * Text from people and agents is rendered as text: HTML in a user message or in an agent's
 * markdown never becomes elements, never runs, and `javascript:` links never become links.
 */
import { expect, snap, test } from './fixtures.ts';

// Short enough that demo/historian quotes all of it ("It started with: “…”").
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>[click](javascript:window.__pwned=3)';

test('renders HTML in user and agent messages as text; nothing runs', async ({ toolbar, page }, testInfo) => {
  expect(PAYLOAD.length).toBeLessThanOrEqual(120);
  await toolbar.start();
  await toolbar.newChat();
  // demo/historian quotes the chat's first message in its markdown reply: an agent echoing it.
  await toolbar.choose('Agent', 'demo/historian');
  await toolbar.send(PAYLOAD);

  const sent = toolbar.userMessages.first();
  await expect(sent).toHaveText(PAYLOAD);
  const reply = toolbar.doneReplies('demo/historian');
  await expect(reply).toContainText('It started with: “<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>');
  // The unsafe link keeps its label as plain text and loses its target.
  await expect(reply).toContainText('</script>click”.');
  await expect(reply.getByRole('link')).toHaveCount(0);
  await expect(toolbar.activeChat).toContainText('<img src=x');
  await snap(page, testInfo, 'sanitize');

  const found = await page.evaluate(() => {
    const root = document.querySelector('agentbar-toolbar')!.shadowRoot!;
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      inToolbar: root.querySelectorAll('img, script, iframe, object, embed').length,
      inPage: document.querySelectorAll('img').length,
      links: [...root.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      handlers: [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
    };
  });
  expect(found).toEqual({ pwned: undefined, inToolbar: 0, inPage: 0, links: [], handlers: [] });

  // Clicking where the link was does nothing either.
  await reply.getByText('It started with:').click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
});
