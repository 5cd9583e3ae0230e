/**
 * Versions of an answer: Regenerate, Retry and Edit make a new version in place of piling the
 * question up again, and ‹ n/m › switches between them.
 */
import { checkContrast, seriousViolations } from './axe.ts';
import { expect, snap, test } from './fixtures.ts';

test.beforeEach(async ({ toolbar }) => {
  await toolbar.start();
  await toolbar.newChat();
});

test('Regenerate makes a second version of the answer under the one question, and ‹ n/m › switches back', async ({ toolbar, page }, testInfo) => {
  const first = await toolbar.ask('help');
  await first.hover();
  await first.getByRole('button', { name: 'Regenerate' }).click();
  const versions = toolbar.log.getByRole('group', { name: /^Version \d of \d$/ });
  await expect(versions).toHaveAccessibleName('Version 2 of 2');
  // One question, one answer shown: the first version waits behind the switcher.
  await expect(toolbar.userMessages).toHaveText(['help']);
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await expect(versions.getByRole('button', { name: 'Next version' })).toBeDisabled();
  await expect(versions.locator('.ab-versions-n')).toHaveAttribute('data-label', '2/2');
  await snap(page, testInfo, 'answer-version-2-of-2');

  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(versions).toHaveAccessibleName('Version 1 of 2');
  await expect(versions.locator('.ab-versions-n')).toHaveAttribute('data-label', '1/2');
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await expect(versions.getByRole('button', { name: 'Previous version' })).toBeDisabled();

  // A question asked now follows the version shown.
  await toolbar.ask('show me markdown');
  await expect(toolbar.userMessages).toHaveText(['help', 'show me markdown']);
  await expect(versions).toHaveAccessibleName('Version 1 of 2');
  await versions.getByRole('button', { name: 'Next version' }).click();
  await expect(versions).toHaveAccessibleName('Version 2 of 2');
  await expect(toolbar.userMessages).toHaveText(['help']);
});

test('the ‹ n/m › switcher has no serious axe finding and readable contrast, light and dark', async ({ toolbar, page }) => {
  const first = await toolbar.ask('help');
  await first.hover();
  await first.getByRole('button', { name: 'Regenerate' }).click();
  const versions = toolbar.log.getByRole('group', { name: 'Version 2 of 2' });
  await expect(versions).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await versions.hover();
    expect(await seriousViolations(page), colorScheme).toEqual([]);
    const report = await checkContrast(page);
    expect(report.violations, colorScheme).toEqual([]);
    expect(report.measured).toBeGreaterThan(5);
  }
});

test('Retry of a failed reply makes a new version of it, not a second question', async ({ toolbar }) => {
  await toolbar.sendAndSettle('fail on purpose');
  const failed = toolbar.log.getByRole('article', { name: 'demo/guide, failed' });
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(toolbar.log.getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await expect(toolbar.userMessages).toHaveText(['fail on purpose']);
  await expect(failed).toHaveCount(1);
});

test('Edit and resend makes a new version of the question, with its own answer', async ({ toolbar }) => {
  await toolbar.ask('help');
  const question = toolbar.userMessages.first();
  await question.hover();
  await question.getByRole('button', { name: 'Edit' }).click();
  await expect(toolbar.composer).toHaveValue('help');
  await expect(toolbar.panel.getByRole('status').filter({ hasText: 'Editing:' })).toBeVisible();
  await toolbar.send('show me markdown');
  await expect(toolbar.userMessages).toHaveText(['show me markdown']);
  const versions = toolbar.userMessages.getByRole('group', { name: 'Version 2 of 2' });
  await expect(versions).toBeVisible();
  await expect(toolbar.doneReplies()).toHaveCount(1);
  await expect(toolbar.log.getByRole('article', { name: /, streaming$/ })).toHaveCount(0);
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(toolbar.userMessages).toHaveText(['help']);
  await expect(toolbar.userMessages.getByRole('group', { name: 'Version 1 of 2' })).toBeVisible();
});
