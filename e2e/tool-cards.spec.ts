/**
 * One card per tool call: the call, its state, its approval and its result in one collapsible
 * card, whatever message the result and the answer are stored in; and the ways a new chat offers
 * to start (suggestions, the agent's commands). Both themes, axe-clean.
 */
import { seriousViolations } from './axe.ts';
import { expect, snap, test, type Toolbar } from './fixtures.ts';

test.beforeEach(async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
});

/** The card of the last call of `name`, and the button in its head that opens and closes it. */
function cardOf(toolbar: Toolbar, name: string) {
  const card = toolbar.log.getByRole('group', { name: `Tool call ${name}` }).last();
  return { card, head: card.locator('.ab-tool-head') };
}

test('shows each tool call as one card with its result inside, closed once done', async ({ toolbar, page }, testInfo) => {
  // A backend call's result is in its own message; a cli call's is a tool message of its own.
  await toolbar.sendAndSettle('search the docs');
  await toolbar.sendAndSettle('system info');
  await expect(toolbar.doneReplies().last()).toContainText('The agent runs on');

  await expect(toolbar.log.getByRole('group', { name: /^Tool call / })).toHaveCount(2);
  await expect(toolbar.log.getByRole('group', { name: /^Tool result / })).toHaveCount(0);
  await expect(toolbar.log.getByRole('article', { name: 'Tool results' })).toHaveCount(0);

  for (const [name, output] of [
    ['search_docs', 'Protocol §3: State and diffs'],
    ['system_info', `"node": "${process.version}"`],
  ] as const) {
    const { card, head } = cardOf(toolbar, name);
    await expect(head).toHaveAttribute('aria-expanded', 'false');
    await expect(card.locator('.ab-s-done')).toHaveText('done');
    await expect(card.getByLabel(`Output of ${name}`)).toHaveCount(0);
    await head.click();
    await expect(head).toHaveAttribute('aria-expanded', 'true');
    await expect(card.getByLabel(`Input of ${name}`)).toBeVisible();
    await expect(card.getByLabel(`Output of ${name}`)).toContainText(output);
  }
  // The cli call's step, then the answer: nothing sits between them any more.
  const callStep = toolbar.log.getByRole('article').filter({ has: page.getByRole('group', { name: 'Tool call system_info' }) });
  expect(await callStep.evaluate((el) => el.nextElementSibling?.getAttribute('aria-label'))).toBe('demo/guide');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, testInfo, `tool-cards-open-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test('asks approval inside the card, and shows the answer there rather than as a message of yours', async ({ toolbar, page }, testInfo) => {
  await toolbar.send('read my selection');
  const { card, head } = cardOf(toolbar, 'get_selected_elements');
  // Waiting for an answer, the card is open, with the agent's question and its buttons inside.
  await expect(card.locator('.ab-s-awaiting-approval')).toHaveText('awaiting approval');
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  await expect(card.getByLabel('Input of get_selected_elements')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, testInfo, `tool-card-awaiting-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
  }

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.ab-s-done')).toHaveText('done');
  await expect(toolbar.doneReplies().last()).toContainText('No elements are selected. Press Pick elements');
  await expect(card.locator('.ab-tool-answer')).toHaveText('Approved');
  await expect(head).toHaveAttribute('aria-expanded', 'false');
  // The only message of the developer's is the question: the answer is no bubble, no note.
  await expect(toolbar.userMessages).toHaveText(['read my selection']);
  await expect(toolbar.log.getByText(/approved the tool call/i)).toHaveCount(0);
  // Its result is in the card too.
  await head.click();
  await expect(card.getByLabel('Output of get_selected_elements')).toBeVisible();

  await toolbar.send('read my selection again');
  const second = cardOf(toolbar, 'get_selected_elements');
  await second.card.getByRole('textbox', { name: 'Reason' }).fill('not on this page');
  await second.card.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(second.card.locator('.ab-s-denied')).toHaveText('rejected');
  await expect(second.card.locator('.ab-tool-answer')).toHaveText('Rejected: not on this page');
  await expect(toolbar.doneReplies().last()).toContainText('Understood, I will not read the page (not on this page).');
  await expect(toolbar.userMessages).toHaveText(['read my selection', 'read my selection again']);
  await snap(page, testInfo, 'tool-card-answered');
});

test('opens and closes a card from the keyboard', async ({ toolbar, page }) => {
  await toolbar.sendAndSettle('search the docs');
  const { card, head } = cardOf(toolbar, 'search_docs');
  await expect(head).toHaveAttribute('aria-expanded', 'false');
  // Tab reaches the head from the list (after the question's Edit and Copy); Enter and Space toggle it, as any button.
  await toolbar.log.focus();
  for (let i = 0; i < 6 && !(await head.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)); i++) await page.keyboard.press('Tab');
  await expect(head).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  await expect(card.getByLabel('Output of search_docs')).toBeVisible();
  // The opened part comes next in the Tab order: its input, then its output.
  await page.keyboard.press('Tab');
  await expect(card.locator('summary', { hasText: 'Input' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(card.getByLabel('Input of search_docs')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Space');
  await expect(head).toHaveAttribute('aria-expanded', 'false');
  await expect(card.getByLabel('Output of search_docs')).toHaveCount(0);
  await expect(head).toBeFocused();
});

test("offers suggestions and the agent's commands in a new chat, from the keyboard too", async ({ toolbar, page }, testInfo) => {
  const suggestions = toolbar.log.getByRole('group', { name: 'Suggestions' }).getByRole('button');
  await expect(suggestions).toHaveText(['What does this page do?', 'Find problems on this page', 'Suggest a cleaner layout']);
  const commands = toolbar.log.getByRole('group', { name: 'Commands of demo/guide' });
  await expect(commands.getByRole('button')).toHaveCount(4);
  await expect(commands.getByRole('button').first()).toHaveText('/markdownStreamed markdown with a code block');
  await expect(commands).toContainText('Type / for all 9 commands');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, testInfo, `empty-chat-${scheme}`);
    expect(await seriousViolations(page)).toEqual([]);
  }

  // A command goes into the box, to complete and send: it may want words after it.
  await toolbar.log.focus();
  await page.keyboard.press('Tab');
  await expect(suggestions.first()).toBeFocused();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  // Suggestions, then commands: the fourth Tab reaches the second command.
  await expect(commands.getByRole('button', { name: '/think' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toolbar.composer).toHaveValue('/think ');
  await expect(toolbar.composer).toBeFocused();
  await expect(toolbar.userMessages).toHaveCount(0);
});

test('sends a suggestion at once, and keeps the focus in the box', async ({ toolbar, page }) => {
  const suggestions = toolbar.log.getByRole('group', { name: 'Suggestions' }).getByRole('button');
  await suggestions.nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(toolbar.userMessages).toHaveText(['Find problems on this page']);
  await expect(toolbar.composer).toBeFocused();
  await expect(toolbar.composer).toHaveValue('');
  await expect(toolbar.log.getByRole('group', { name: 'Suggestions' })).toHaveCount(0);
});

test('puts a suggestion before what the developer was typing, unsent', async ({ toolbar }) => {
  await toolbar.composer.fill('and the header');
  await toolbar.log.getByRole('group', { name: 'Suggestions' }).getByRole('button', { name: 'Find problems on this page' }).click();
  await expect(toolbar.composer).toHaveValue('Find problems on this page\n\nand the header');
  await expect(toolbar.userMessages).toHaveCount(0);
});
