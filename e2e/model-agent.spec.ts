/**
 * A model agent in the toolbar: `agentbar serve --model … --base-url …` against a local server that
 * speaks the chat-completions API; the user approves the model's `activate_skill` in the toolbar.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAi } from '../test-support/fake-openai.ts';
import { DemoServer } from './demo-server.ts';
import { expect, snap, test, Toolbar } from './fixtures.ts';

test('talks to a model agent and approves the skill it asks for', async ({ page }, testInfo) => {
  const fake = await FakeOpenAi.start();
  const skills = await mkdtemp(path.join(os.tmpdir(), 'agentbar-e2e-skills-'));
  let server: DemoServer | null = null;
  try {
    await mkdir(path.join(skills, 'review'));
    await writeFile(path.join(skills, 'review', 'SKILL.md'), '---\nname: review\ndescription: Reviews the page for accessibility\n---\nREVIEW-PROMPT: check labels and contrast.\n');
    fake.queue(
      { steps: [{ reasoning: 'The user wants a review; that is my review skill.' }, { text: 'I can review this page with my review skill.' }, { toolCall: { id: 'call_1', name: 'activate_skill', args: ['{"name":', '"review"}'] } }] },
      { steps: [{ text: 'The review skill is on. ' }, { text: 'The **Filter orders** button has a clear label.' }] },
    );
    server = await DemoServer.start({ args: ['--model', 'fake-model', '--base-url', fake.baseUrl, '--skills-dir', skills] });
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    await expect(toolbar.agentSelect).toHaveText('model/fake-model');

    await toolbar.send('please review this page');
    const card = toolbar.log.getByRole('group', { name: 'Tool call activate_skill' });
    await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
    await snap(page, testInfo, 'model-skill-approval');
    // Nothing reached the model about the skill's prompt before the user said yes.
    expect(fake.requests).toHaveLength(1);
    expect(fake.systemOf(0)).not.toContain('REVIEW-PROMPT');

    await card.getByRole('button', { name: 'Approve' }).click();
    await expect(card.locator('.ab-s-done')).toHaveText('done');
    await expect(toolbar.doneReplies('model/fake-model').last()).toContainText('has a clear label');
    await expect(toolbar.panel.getByRole('status').filter({ hasText: 'Skill: review' })).toBeVisible();
    expect(fake.systemOf(1)).toContain('REVIEW-PROMPT: check labels and contrast.');
    await snap(page, testInfo, 'model-skill-active');
  } finally {
    await server?.dispose();
    await fake.close();
    await rm(skills, { recursive: true, force: true });
  }
});

test('shows how full the model agent context is, with --context-window, at the end of a row of its own', async ({ page }, testInfo) => {
  const fake = await FakeOpenAi.start();
  let server: DemoServer | null = null;
  try {
    fake.queue({ steps: [{ text: 'A short answer.' }], usage: { prompt_tokens: 2000, completion_tokens: 48 } }, { steps: [{ text: 'A longer answer.' }], usage: { prompt_tokens: 6000, completion_tokens: 600 } });
    server = await DemoServer.start({ args: ['--model', 'fake-model', '--base-url', fake.baseUrl, '--context-window', '8192'] });
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    await expect(toolbar.agentSelect).toHaveText('model/fake-model');
    const meter = toolbar.panel.getByRole('meter', { name: 'Context used' });
    // One model: no menus, and no row until there is something to show.
    await expect(meter).toHaveCount(0);
    await toolbar.send('hello');
    await expect(toolbar.doneReplies('model/fake-model').last()).toContainText('A short answer.');
    await expect(meter).toHaveText('2k/8k');
    await expect(meter).toHaveAttribute('aria-valuetext', '2,048 of 8,192 tokens of context used (25%)');
    await expect(meter).not.toHaveClass(/ab-usage-high/);

    await toolbar.send('tell me more');
    await expect(toolbar.doneReplies('model/fake-model').last()).toContainText('A longer answer.');
    // 6,600 of 8,192: past 80%, where a small model starts to forget the start of the chat.
    await expect(meter).toHaveText('7k/8k');
    await expect(meter).toHaveClass(/ab-usage-high/);
    // It ends the row under the message box, as it does after the menus.
    const row = toolbar.panel.getByRole('group', { name: "model/fake-model's settings" });
    const [rowBox, meterBox] = [(await row.boundingBox())!, (await meter.boundingBox())!];
    expect(rowBox.x + rowBox.width - (meterBox.x + meterBox.width)).toBeLessThan(12);
    await snap(page, testInfo, 'model-context-usage');
  } finally {
    await server?.dispose();
    await fake.close();
  }
});
