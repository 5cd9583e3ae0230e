/**
 * Your own coding agent in the toolbar: `agentbar serve --acp …` with a scripted ACP agent run as a
 * real child process. The user approves its permission request in the toolbar, sees its tool calls,
 * diff and plan, and the agent reads the elements the user picked through the page tools' MCP server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seriousViolations } from './axe.ts';
import { DemoServer } from './demo-server.ts';
import type { Locator, Page } from '@playwright/test';
import { expect, snap, test, Toolbar } from './fixtures.ts';

const SCRIPT = fileURLToPath(new URL('../test-support/scripted-acp-agent.mjs', import.meta.url));

/**
 * `agentbar serve --acp` with the scripted agent in a temp working folder, the toolbar open on a new
 * chat; `env` starts the agent with those variables (through env(1), as a user's command line would).
 */
async function withScriptedAgent(page: Page, use: (toolbar: Toolbar, cwd: string) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'agentbar-e2e-acp-'));
  let server: DemoServer | null = null;
  try {
    const vars = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    const command = vars.length ? `env ${vars.join(' ')} node ${SCRIPT}` : `node ${SCRIPT}`;
    server = await DemoServer.start({ args: ['--acp', command, '--acp-id', 'acp/scripted', '--cwd', cwd] });
    const toolbar = new Toolbar(page, server);
    await toolbar.start();
    await toolbar.newChat();
    await use(toolbar, cwd);
  } finally {
    await server?.dispose();
    await rm(cwd, { recursive: true, force: true });
  }
}

test('works with an ACP coding agent: approves its edit, and it reads the picked elements over MCP', async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar, cwd) => {
    // The user's own agent comes first, so a new chat talks to it.
    await expect(toolbar.agentSelect).toHaveText('acp/scripted');

    await toolbar.send('edit');
    const read = toolbar.log.getByRole('group', { name: 'Tool call Read notes.txt' });
    await expect(read.locator('.ab-s-done')).toHaveText('done');
    // A call that is done is closed: its head opens it.
    await read.locator('.ab-tool-head').click();
    await expect(read.getByRole('list', { name: 'Files' })).toHaveText(path.join(cwd, 'notes.txt'));
    const edit = toolbar.log.getByRole('group', { name: 'Tool call Edit notes.txt' });
    // The buttons say what the agent calls its answers (Claude Code's words).
    await expect(edit.getByRole('button', { name: 'Allow', exact: true })).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Always Allow' })).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Reject' })).toBeVisible();
    await expect(toolbar.log.getByRole('group', { name: 'Plan, 1 of 2 done' })).toBeVisible();
    await snap(page, testInfo, 'acp-permission');

    await edit.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(edit.locator('.ab-s-done')).toHaveText('done');
    await expect(edit.locator('.ab-tool-answer')).toHaveText('Approved with “Allow”');
    await edit.locator('.ab-tool-head').click();
    const diff = edit.getByRole('group', { name: `Changes to ${path.join(cwd, 'notes.txt')}` });
    await expect(diff.locator('.ab-diff-del')).toHaveText('- old line');
    await expect(diff.locator('.ab-diff-add')).toHaveText('+ new line');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Edited.');
    await expect(toolbar.log.getByRole('group', { name: 'Plan, 2 of 2 done' })).toBeVisible();
    // Focus stays in the toolbar after answering, never lost to the page.
    await snap(page, testInfo, 'acp-edited');

    await toolbar.pickButton.click();
    await page.locator('#page-title').click();
    await page.keyboard.press('Escape');
    await expect(toolbar.panel.getByRole('button', { name: 'Remove h1#page-title' })).toBeVisible();
    await toolbar.send('page');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('The page says:');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('#page-title');
    await expect(toolbar.log.getByRole('group', { name: 'Tool call Look at the picked elements' }).locator('.ab-s-done')).toHaveText('done');
    await snap(page, testInfo, 'acp-page-tools');
  });
});

test("words the approval's buttons as the agent words its answers: Codex's \"always\" is for one command", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('npm-test');
    const call = toolbar.log.getByRole('group', { name: 'Tool call npm test' });
    const once = call.getByRole('button', { name: 'Yes, proceed' });
    const always = call.getByRole('button', { name: "Yes, and don't ask again for commands that start with `npm test`" });
    const no = call.getByRole('button', { name: 'No, and tell Codex what to do differently' });
    await expect(once).toBeVisible();
    await expect(always).toBeVisible();
    await expect(no).toBeVisible();
    await expect(call.getByRole('textbox', { name: 'Reason' })).toHaveAttribute('placeholder', 'Reason (optional, sent if you say no)');
    // A sentence wraps inside the card; nothing runs past the panel.
    const panel = (await toolbar.panel.boundingBox())!;
    for (const button of [once, always, no]) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    }
    await snap(page, testInfo, 'acp-approval-words');
    expect(await seriousViolations(page)).toEqual([]);
    await always.click();
    // The agent got the option that button names.
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Tests passed (approved-execpolicy-amendment).');
    await expect(call.locator('.ab-s-done')).toHaveText('done');
  });
});

test("offers each of the agent's answers as a button of its own: leaving plan mode, two kinds of \"always\" stay two", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('plan-exit');
    const call = toolbar.log.getByRole('group', { name: 'Tool call Ready to code?' });
    const buttons = call.locator('.ab-approval-buttons').getByRole('button');
    // Allowing once first (the main button), each "always" in the agent's order, then no.
    await expect(buttons).toHaveText(['Yes, and manually approve edits', 'Yes, and bypass permissions', 'Yes, and auto-accept edits', 'No, keep planning']);
    await expect(buttons.first()).toHaveClass(/ab-primary/);
    await expect(buttons.last()).toHaveClass(/ab-danger/);
    await expect(call.getByRole('textbox', { name: 'Reason' })).toHaveAttribute('placeholder', 'Reason (optional, sent if you say no)');
    const panel = (await toolbar.panel.boundingBox())!;
    for (const button of await buttons.all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    }
    await snap(page, testInfo, 'acp-approval-options');
    expect(await seriousViolations(page)).toEqual([]);
    await call.getByRole('button', { name: 'Yes, and auto-accept edits' }).click();
    // The agent got that option, not the first "always" (bypass permissions), and says which mode it is in.
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Leaving plan mode for acceptEdits.');
    await expect(toolbar.panel.getByRole('combobox', { name: 'Mode' })).toHaveText('Accept Edits');
    await expect(toolbar.log.getByRole('group', { name: 'Tool call Exited Plan Mode' }).locator('.ab-tool-answer')).toHaveText('Approved with “Yes, and auto-accept edits”');
    // The call, retitled by the agent when done, keeps the focus the buttons had.
    await expect(toolbar.log.getByRole('group', { name: 'Tool call Exited Plan Mode' })).toBeFocused();
  });
});

test("sends a reason typed at an agent's options with its first no", async ({ page }) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('plan-exit');
    const call = toolbar.log.getByRole('group', { name: 'Tool call Ready to code?' });
    await call.getByRole('textbox', { name: 'Reason' }).fill('add the test first');
    await call.getByRole('textbox', { name: 'Reason' }).press('Enter');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Still planning.');
    await expect(call.locator('.ab-s-denied')).toHaveText('rejected');
  });
});

test("shows a command the agent ran with its output as a code block, and its result named after it", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('run');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Two files.');
    const call = toolbar.log.getByRole('group', { name: 'Tool call ls src' });
    await expect(call.locator('.ab-s-done')).toHaveText('done');
    // The agent fenced the output as Markdown: a code block, not the fence's backticks.
    await call.locator('.ab-tool-head').click();
    const output = call.locator('.ab-tool-md');
    await expect(output.locator('.ab-code pre')).toHaveText('app.ts\nstyles.css');
    await expect(output).not.toContainText('```');
    // Its result is in the same card, named after the call.
    await expect(call.getByLabel('Output of ls src')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await snap(page, testInfo, 'acp-command-output');
  });
});

test("shows a command's output that the agent reports only in its raw output, as Codex does", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('codex-run');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Two files; no missing.txt.');
    const ls = toolbar.log.getByRole('group', { name: 'Tool call ls' });
    await ls.locator('.ab-tool-head').click();
    await expect(ls.locator('pre.ab-tool-output')).toHaveText('hello.txt\nmade.txt\n');
    // A call that failed stays open.
    const cat = toolbar.log.getByRole('group', { name: 'Tool call cat missing.txt' });
    await expect(cat.locator('pre.ab-tool-output')).toHaveText('cat: missing.txt: No such file or directory\n');
    await expect(cat.locator('.ab-s-failed')).toHaveText('failed');
    await expect(toolbar.log.getByRole('group', { name: 'Tool call touch made.txt' }).locator('.ab-tool-output')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await ls.scrollIntoViewIfNeeded();
    await snap(page, testInfo, 'acp-raw-output');
  });
});

test("offers the agent's own commands as the user types /, from the keyboard and the mouse", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    // The agent announces its commands once it has started; until then the box offers nothing.
    await expect(toolbar.composer).not.toHaveAttribute('aria-autocomplete');
    await toolbar.send('hello');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Hello from the scripted agent.');

    const commands = toolbar.panel.getByRole('listbox', { name: 'Commands of acp/scripted' });
    const option = (name: string) => commands.getByRole('option', { name: new RegExp(`^/${name}\\b`) });
    await toolbar.composer.fill('/');
    await expect(commands.getByRole('option')).toHaveText(['/reviewwhat to focus onReview the changes on this branch', '/compactSummarize the conversation so far to free context']);
    await expect(option('review')).toHaveAttribute('aria-selected', 'true');
    await expect(toolbar.composer).toHaveAttribute('aria-activedescendant', (await option('review').getAttribute('id'))!);
    await snap(page, testInfo, 'acp-commands');
    expect(await seriousViolations(page)).toEqual([]);

    // Typing narrows the list; the arrow keys move through it and wrap; Tab completes.
    await toolbar.composer.pressSequentially('c');
    await expect(commands.getByRole('option')).toHaveCount(1);
    await toolbar.composer.press('Backspace');
    await toolbar.composer.press('ArrowDown');
    await expect(option('compact')).toHaveAttribute('aria-selected', 'true');
    await toolbar.composer.press('ArrowDown');
    await expect(option('review')).toHaveAttribute('aria-selected', 'true');
    await toolbar.composer.press('Tab');
    await expect(toolbar.composer).toHaveValue('/review ');
    await expect(toolbar.composer).toBeFocused();
    await expect(commands).toBeHidden();
    await expect(toolbar.composer).not.toHaveAttribute('aria-activedescendant');
    await expect(toolbar.composer).toHaveAttribute('aria-autocomplete', 'list');
    await toolbar.composer.pressSequentially('the tests');
    await toolbar.composer.press('Enter');
    await expect(toolbar.doneReplies('acp/scripted').last()).toHaveText(/Reviewing the branch, focusing on the tests: it looks fine\./);

    // Escape closes the list, not the panel, until the text changes; a click completes.
    await toolbar.composer.fill('/comp');
    await expect(commands).toBeVisible();
    await toolbar.composer.press('Escape');
    await expect(commands).toBeHidden();
    await expect(toolbar.panel).toBeVisible();
    await expect(toolbar.composer).toHaveValue('/comp');
    await toolbar.composer.pressSequentially('a');
    await option('compact').click();
    await expect(toolbar.composer).toHaveValue('/compact ');
    await expect(toolbar.composer).toBeFocused();
    // Enter on a command typed in full sends it rather than completing it again.
    await toolbar.composer.fill('/compact');
    await expect(option('compact')).toHaveAttribute('aria-selected', 'true');
    await toolbar.composer.press('Enter');
    await expect(toolbar.doneReplies('acp/scripted').last()).toHaveText(/Compacted the conversation\./);
    await expect(toolbar.userMessages.last()).toHaveText(/^\/compact/);
    await expect(toolbar.composer).toHaveValue('');
  });
});

test("shows the agent's modes beside it: a pick reaches the session, a refusal puts the choice back, and the agent's own change shows", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    const mode = toolbar.panel.getByRole('combobox', { name: 'Mode' });
    // The agent announces its modes with its first session.
    await expect(mode).toHaveCount(0);
    await toolbar.send('mode');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Working in mode default.');
    await expect(mode).toHaveText('Default');
    await mode.click();
    const options = toolbar.panel.getByRole('listbox', { name: 'Mode' }).getByRole('option');
    await expect(options.locator('.ab-menu-name')).toHaveText(['Default', 'Accept Edits', 'Plan Mode', 'Bypass Permissions']);
    // Each mode says what it does in the menu itself, not in a tooltip.
    await expect(options.nth(2)).toContainText('Read only: propose a plan first');
    await options.nth(2).click();
    await expect(mode).toHaveText('Plan Mode');
    await toolbar.send('mode');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Working in mode plan.');
    await snap(page, testInfo, 'acp-modes');
    expect(await seriousViolations(page)).toEqual([]);

    await mode.click();
    await options.nth(3).click();
    await expect(toolbar.panel.getByRole('alert')).toContainText('Bypass Permissions is off: start the agent with --allow-bypass');
    await expect(mode).toHaveText('Plan Mode');

    await toolbar.send('go');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Carrying out the plan');
    await expect(mode).toHaveText('Accept Edits');

    // On a phone the two menus give way, not Send.
    await page.setViewportSize({ width: 360, height: 700 });
    const send = toolbar.panel.getByRole('button', { name: 'Send' });
    const rightEdge = async () => {
      const box = await send.boundingBox();
      return box ? box.x + box.width : Infinity;
    };
    await expect.poll(rightEdge).toBeLessThanOrEqual(360);
    const agentBox = (await toolbar.panel.getByRole('combobox', { name: 'Agent' }).boundingBox())!;
    const modeBox = (await mode.boundingBox())!;
    expect(modeBox.x).toBeGreaterThanOrEqual(agentBox.x + agentBox.width - 1);
    await snap(page, testInfo, 'acp-modes-phone');
  });
});

/** How many pixels narrower a menu is than its chosen option needs: more than 0 reads "Default (rec…". */
function widthCut(menu: Locator): Promise<number> {
  return menu.evaluate((el: HTMLElement) => {
    const shown = el.getBoundingClientRect().width;
    el.style.maxWidth = 'none';
    const whole = el.getBoundingClientRect().width;
    el.style.maxWidth = '';
    return whole - shown;
  });
}

test("shows the agent's settings beside it (model, thinking, its mode among them): a pick reaches the session, a refusal puts it back, the agent's own change shows", async ({ page }, testInfo) => {
  await withScriptedAgent(
    page,
    async (toolbar) => {
      const model = toolbar.panel.getByRole('combobox', { name: 'Model' });
      const thinking = toolbar.panel.getByRole('combobox', { name: 'Thinking' });
      const mode = toolbar.panel.getByRole('combobox', { name: 'Mode', exact: true });
      await expect(model).toHaveCount(0);
      await toolbar.send('settings');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Model default, thinking medium, mode default.');
      // One Mode menu: the agent's mode option, not its older modes as well.
      await expect(mode).toHaveCount(1);
      await expect(model).toHaveValue('default');
      await expect(model.locator('optgroup')).toHaveText(['Default (recommended)', 'OpusHaiku']);
      await expect(model.locator('optgroup').first()).toHaveAttribute('label', 'Recommended');
      await expect(thinking).toHaveValue('medium');

      await model.selectOption('opus');
      await expect(toolbar.panel.getByRole('alert')).toContainText('Opus is not on your plan');
      await expect(model).toHaveValue('default');

      await mode.selectOption('plan');
      await expect(mode).toHaveClass(/ab-mode-on/);
      await model.selectOption('haiku');
      await expect(model).toHaveAttribute('title', 'Model: Fastest');
      await toolbar.send('settings');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Model haiku, thinking low, mode plan.');
      // Haiku moved the thinking level: the menu says so.
      await expect(thinking).toHaveValue('low');
      // An on/off option is a switch, worked from the keyboard too.
      const fast = toolbar.panel.getByRole('switch', { name: 'Fast mode' });
      await expect(fast).not.toBeChecked();
      await fast.focus();
      await page.keyboard.press('Space');
      await expect(fast).toBeChecked();
      await toolbar.send('fast');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Fast mode on.');
      await snap(page, testInfo, 'acp-settings');
      expect(await seriousViolations(page)).toEqual([]);

      await thinking.selectOption('high');
      await toolbar.send('downgrade');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Out of quota');
      await expect(model).toHaveValue('haiku');
      await expect(thinking).toHaveValue('low');

      // A new chat starts with the defaults.
      await toolbar.newChat();
      await expect(model).toHaveValue('default');
      await expect(fast).not.toBeChecked();
      await expect(mode).not.toHaveClass(/ab-mode-on/);

      // On a phone the menus give way, not Send.
      await page.setViewportSize({ width: 360, height: 700 });
      const send = toolbar.panel.getByRole('button', { name: 'Send' });
      await expect.poll(async () => {
        const box = await send.boundingBox();
        return box ? box.x + box.width : Infinity;
      }).toBeLessThanOrEqual(360);
      await snap(page, testInfo, 'acp-settings-phone');
    },
    { ACP_SCRIPT_CONFIG: '1' },
  );
});

test("shows the agent's notices at the top of its reply, and one it gave between replies on the next", async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('notice');
    const reply = toolbar.doneReplies('acp/scripted').last();
    await expect(reply).toContainText('Answered without the docs.');
    const notices = reply.getByRole('list', { name: 'Notices from the agent' }).getByRole('listitem');
    // Each line: its mark (! warning, i info), its title, its detail.
    await expect(notices).toHaveText(['!MCP server "docs" unavailableContinuing without it.', 'iUsing a smaller model for this turn']);
    await expect(notices.first().getByRole('img', { name: 'Warning' })).toBeVisible();
    // The reply itself is not failed by a notice.
    await expect(reply).not.toContainText('Failed');
    await snap(page, testInfo, 'acp-notices');
    expect(await seriousViolations(page)).toEqual([]);

    await toolbar.send('hello');
    const next = toolbar.doneReplies('acp/scripted').last();
    await expect(next).toContainText('Hello from the scripted agent.');
    await expect(next.getByRole('listitem')).toHaveText(['×Background indexing failedSearch results may be stale.']);
    await expect(next.getByRole('img', { name: 'Error' })).toBeVisible();
  });
});

test("shows how full the agent's context is beside its settings, and what the session cost", async ({ page }, testInfo) => {
  await withScriptedAgent(
    page,
    async (toolbar) => {
      const meter = toolbar.panel.getByRole('meter', { name: 'Context used' });
      await toolbar.send('hello');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Hello from the scripted agent.');
      await expect(meter).toHaveCount(0);

      await toolbar.send('usage');
      await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('That took a lot of reading.');
      await expect(meter).toHaveText('150k/200k · $0.42');
      // The menus beside it show their whole choice ("Default (recommended)"), not "Default (rec…".
      const model = toolbar.panel.getByRole('combobox', { name: 'Model' });
      await expect(model).toHaveValue('default');
      expect(await widthCut(model)).toBeLessThan(1);
      await expect(meter).toHaveAttribute('aria-valuenow', '75');
      await expect(meter).toHaveAttribute('aria-valuetext', '150,000 of 200,000 tokens of context used (75%); the session has cost $0.42');
      await expect(meter).not.toHaveClass(/ab-usage-high/);
      await snap(page, testInfo, 'acp-context-usage');
      expect(await seriousViolations(page)).toEqual([]);

      // The agent compacted its context between turns: the next turn shows it.
      await toolbar.send('hello');
      await expect(toolbar.doneReplies('acp/scripted')).toHaveCount(3);
      await expect(meter).toHaveText('30k/200k · $0.45');
      // The list of chats says what each cost.
      await toolbar.actions.getByRole('button', { name: 'All chats' }).click();
      const list = toolbar.panel.getByRole('dialog', { name: 'All chats' });
      await expect(list.getByRole('listitem').first()).toContainText('6 messages · $0.45 · acp/scripted');
      await snap(page, testInfo, 'acp-chat-list-cost');
      await page.keyboard.press('Escape');
      await expect(list).toHaveCount(0);

      // Another chat has its own context.
      await toolbar.newChat();
      await expect(meter).toHaveCount(0);

      // On a phone the meter stays inside the panel with the menus.
      await toolbar.send('usage');
      await expect(meter).toHaveText('150k/200k · $0.42');
      await page.setViewportSize({ width: 360, height: 700 });
      await expect.poll(async () => {
        const box = await meter.boundingBox();
        return box ? box.x + box.width : Infinity;
      }).toBeLessThanOrEqual(360);
      // The row wraps rather than cutting a menu, inside the panel too.
      expect(await widthCut(model)).toBeLessThan(1);
      expect(await model.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(360);
      await snap(page, testInfo, 'acp-context-usage-phone');
    },
    { ACP_SCRIPT_CONFIG: '1' },
  );
});

test('names the chat as the agent names its session, and keeps a name the user gave', async ({ page }, testInfo) => {
  await withScriptedAgent(page, async (toolbar) => {
    await toolbar.send('title');
    await expect(toolbar.doneReplies('acp/scripted').last()).toContainText('Named.');
    // Given once the turn was over: shown at once, without the Markdown and the line break it came with.
    await expect(toolbar.activeChat).toHaveText('Fix the login button on mobile');
    await snap(page, testInfo, 'acp-chat-title');

    await toolbar.chats.getByRole('button', { name: 'Rename chat' }).click();
    await toolbar.chats.getByRole('textbox', { name: 'Chat title' }).fill('Login work');
    await toolbar.chats.getByRole('button', { name: 'Save title' }).click();
    await expect(toolbar.activeChat).toHaveText('Login work');
    await toolbar.send('title');
    await expect(toolbar.doneReplies('acp/scripted')).toHaveCount(2);
    await toolbar.send('hello');
    await expect(toolbar.doneReplies('acp/scripted')).toHaveCount(3);
    await expect(toolbar.activeChat).toHaveText('Login work');
  });
});
