/**
 * Picking page elements: while picking, clicks select elements (the page never sees them), chips
 * list them, Esc ends; the next message carries their descriptions to the server and the agent,
 * and takes them out of the box: they show on the sent message.
 */
import { expect, snap, test } from './fixtures.ts';
import { readUserMessages } from './wire-client.ts';

test('picks page elements, shows them as chips, and sends them with the message', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  // Count the clicks the page's own elements get (clicks in the toolbar reach the page retargeted
  // to its host element; those are not counted).
  await page.evaluate(() => {
    const w = window as unknown as { pageClicks: number };
    w.pageClicks = 0;
    document.addEventListener('click', (e) => {
      if ((e.target as Element).localName !== 'agentbar-toolbar') w.pageClicks++;
    });
  });
  const pageClicks = () => page.evaluate(() => (window as unknown as { pageClicks: number }).pageClicks);

  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  await toolbar.pickButton.click();
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'true');
  await expect(toolbar.panel).toContainText('Click elements on the page to select them. Esc to finish.');

  await page.locator('#page-title').click();
  await expect(toolbar.panel.getByRole('button', { name: 'Remove h1#page-title' })).toBeVisible();
  await page.getByRole('cell', { name: 'Ada Lovelace' }).click();
  // A cell has no id nor component: its words tell it apart.
  await expect(toolbar.panel.getByRole('button', { name: 'Remove td “Ada Lovelace”', exact: true })).toBeVisible();
  await page.getByRole('cell', { name: '#10420' }).hover();
  // Outlines over the picked elements and the hovered one, drawn inside the toolbar.
  await expect(page.locator('agentbar-toolbar .ab-outline.ab-picked')).toHaveCount(2);
  await expect(page.locator('agentbar-toolbar .ab-outline.ab-hover')).toContainText('td');
  await snap(page, testInfo, 'picking');
  expect(await pageClicks()).toBe(0);

  await page.keyboard.press('Escape');
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('agentbar-toolbar .ab-outline')).toHaveCount(0);
  // No longer picking: a click is the page's again and picks nothing.
  await page.locator('#page-title').click();
  await expect.poll(pageClicks).toBe(1);
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(2);

  await toolbar.send('what is in my selection?');
  const sent = toolbar.userMessages.first();
  await expect(sent.getByLabel('Selected elements')).toHaveText(/h1#page-title\s*td “Ada Lovelace”/);

  // The server got the descriptions, and the browser context, in the message metadata.
  const [message] = await readUserMessages(server);
  // After the text, a picture of each pick (screenshots.spec.ts checks what they show).
  expect(message!.content.map((p) => (p.type === 'image' ? p.filename : p))).toEqual([{ type: 'text', text: 'what is in my selection?' }, 'pick-1-h1.png', 'pick-2-td.png']);
  const { metadata } = message!;
  expect(metadata.source).toBe('toolbar');
  expect(metadata.browser).toMatchObject({ url: `${server.httpUrl}/`, title: 'Acme Orders — agentbar demo', viewport: { width: 1280, height: 720 } });
  expect(metadata.selectedElements).toHaveLength(2);
  expect(metadata.selectedElements[0]).toMatchObject({
    tagName: 'h1',
    selector: '#page-title',
    xpath: '/html/body/main/h1',
    attributes: { id: 'page-title' },
    textContent: 'Orders',
    parent: { tagName: 'main' },
  });
  expect(metadata.selectedElements[0]!.boundingClientRect.width).toBeGreaterThan(0);
  expect(metadata.selectedElements[1]).toMatchObject({
    tagName: 'td',
    selector: '#orders > tbody > tr:nth-of-type(1) > td:nth-of-type(2)',
    textContent: 'Ada Lovelace',
  });

  // The agent's toolbar tool reads the same elements once allowed.
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' });
  await card.getByRole('button', { name: 'Approve' }).click();
  const answer = toolbar.doneReplies().last();
  await expect(answer).toContainText('You selected 2 elements:');
  await expect(answer.getByRole('listitem')).toHaveText([
    '#page-title — “Orders”',
    '#orders > tbody > tr:nth-of-type(1) > td:nth-of-type(2) — “Ada Lovelace”',
  ]);
  await snap(page, testInfo, 'picking-answer');
});

test('a pick of an element the Vite plugin marked names its component in its chip, and sends the chain', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.pickButton.click();
  // The demo page's filter form carries the marks agentbar/vite adds in dev: FilterButton's button in OrderFilters' form.
  await page.getByRole('button', { name: 'Filter orders' }).click();
  await page.keyboard.press('Escape');
  const chip = toolbar.panel.locator('.ab-composer .ab-chip.ab-el');
  await expect(chip).toHaveText('FilterButton › button.primary');
  await expect(chip).toHaveAttribute('title', 'html > body > main > form > button\nin FilterButton (src/FilterButton.tsx:3:5)\nin OrderFilters (src/OrderFilters.tsx:5:5)');
  await expect(toolbar.panel.getByRole('button', { name: 'Remove button.primary in FilterButton', exact: true })).toBeVisible();
  await snap(page, testInfo, 'picking-component');

  await toolbar.send('why is this button blue?');
  await expect(toolbar.userMessages.first().getByLabel('Selected elements')).toHaveText('FilterButton › button.primary');
  const [message] = await readUserMessages(server);
  const picked = message!.metadata.selectedElements[0]!;
  expect(picked.components).toEqual([
    { name: 'FilterButton', file: 'src/FilterButton.tsx', line: 3, column: 5 },
    { name: 'OrderFilters', file: 'src/OrderFilters.tsx', line: 5, column: 5 },
  ]);
  // The marks are said once, in the chain, not again among the attributes.
  expect(picked.attributes).toEqual({ class: 'primary', type: 'submit' });
});

test('a sent message takes its picks out of the box and shows them; the next message goes without them', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.pickButton.click();
  await page.getByRole('button', { name: 'Filter orders' }).click();
  await page.getByRole('cell', { name: 'Grace Hopper' }).click();
  await page.keyboard.press('Escape');
  // The chips, then Clear all after them.
  const box = toolbar.panel.locator('.ab-composer .ab-chips > *');
  await expect(box).toHaveText(['FilterButton › button.primary', 'td “Grace Hopper”', 'Clear all']);

  await toolbar.send('selection');
  const sent = toolbar.userMessages.first();
  await expect(sent.getByLabel('Selected elements').locator('.ab-chip')).toHaveText(['FilterButton › button.primary', 'td “Grace Hopper”']);
  await expect(box).toHaveCount(0);
  await snap(page, testInfo, 'picks-sent');
  // The agent still reads the picks of the message it answers.
  await toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' }).getByRole('button', { name: 'Approve' }).click();
  await expect(toolbar.doneReplies().last()).toContainText('You selected 2 elements');

  await toolbar.send('and now?');
  const next = toolbar.userMessages.filter({ hasText: 'and now?' });
  await expect(next).toBeVisible();
  await expect(next.getByLabel('Selected elements')).toHaveCount(0);
  const texts = (await readUserMessages(server)).flatMap((m) => (m.content[0]?.type === 'text' ? [[m.content[0].text, m.metadata.selectedElements.length]] : []));
  expect(texts).toEqual([['selection', 2], ['and now?', 0]]);
});

test('closing the panel ends picking: the page has its clicks back, and nothing more is picked', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  await page.evaluate(() => {
    const w = window as unknown as { titleClicks: number };
    w.titleClicks = 0;
    document.querySelector('#page-title')!.addEventListener('click', () => w.titleClicks++);
  });
  await toolbar.pickButton.click();
  await page.getByRole('cell', { name: 'Ada Lovelace' }).click();
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(1);

  await toolbar.closeButton.click();
  await expect(toolbar.panel).toBeHidden();
  // Before, the picker still ate this click and picked the heading, with nothing on screen to say so.
  await page.locator('#page-title').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { titleClicks: number }).titleClicks)).toBe(1);
  await expect(page.locator('agentbar-toolbar .ab-outline')).toHaveCount(0);

  await toolbar.launcher.click();
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(1);
  // A chip can be removed; the element is then no longer sent.
  await toolbar.panel.getByRole('button', { name: 'Remove td “Ada Lovelace”', exact: true }).click();
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(0);
});

test('an element inside an SVG gets a selector and an XPath that find it (SVG names keep their case)', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  await page.evaluate(() => {
    document.querySelector('main')!.insertAdjacentHTML(
      'afterbegin',
      '<svg id="chart" width="240" height="40"><foreignObject width="240" height="40"><div xmlns="http://www.w3.org/1999/xhtml" class="label">Revenue by month</div></foreignObject></svg>',
    );
  });
  await toolbar.pickButton.click();
  await page.getByText('Revenue by month').click();
  await page.keyboard.press('Escape');
  await toolbar.send('what is this label?');
  const [message] = await readUserMessages(server);
  const picked = message!.metadata.selectedElements[0]!;
  expect(picked).toMatchObject({ tagName: 'div', selector: '#chart > foreignObject > div', xpath: "/html/body/main/*[local-name()='svg']/*[local-name()='foreignObject']/div" });
  const found = await page.evaluate(({ selector, xpath }) => {
    const label = document.querySelector('#chart .label');
    const byXpath = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    return { bySelector: document.querySelector(selector) === label, byXpath: byXpath === label };
  }, { selector: picked.selector!, xpath: picked.xpath });
  expect(found).toEqual({ bySelector: true, byXpath: true });
});
