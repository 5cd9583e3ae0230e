/**
 * `npm run tour`: a scripted walk through the toolbar's main features in Chromium against the real
 * demo server (a child process on a free port with a temp data dir), saving one numbered
 * screenshot per step under tour-screenshots/: the desktop in the light theme, its main states
 * again in the dark one, and a phone in both. Headless unless `--headed` is given and a display
 * exists. Leaves no process behind.
 *
 *   npm run tour                 # headless
 *   npm run tour -- --headed     # a visible browser (needs $DISPLAY)
 *   npm run tour -- --out DIR    # screenshots elsewhere
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { DemoServer } from './demo-server.ts';
import { makePng } from './png.ts';
import { Toolbar } from './toolbar-page.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(REPO_ROOT, 'dist', 'toolbar.js');
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export interface TourOptions {
  headed: boolean;
  outDir: string;
}

/** Reads `--headed`, `--out DIR` and `--help`; throws on anything else. */
export function parseTourArgs(argv: string[]): TourOptions | 'help' {
  const options: TourOptions = { headed: false, outDir: path.join(REPO_ROOT, 'tour-screenshots') };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--headed') options.headed = true;
    else if (arg === '--out') {
      const dir = argv[++i];
      if (!dir) throw new Error('--out needs a directory');
      options.outDir = path.resolve(dir);
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

function chromiumPath(): string | undefined {
  const system = process.env.AGENTBAR_CHROMIUM ?? '/usr/bin/chromium';
  return existsSync(system) ? system : undefined;
}

/** Numbers the screenshots and says what each one shows. */
class Camera {
  private step = 0;
  readonly shots: string[] = [];
  constructor(
    private readonly page: Page,
    private readonly dir: string,
  ) {}

  /** Saves the next screenshot, of the tour's page or of `page` (another device's). */
  async shoot(slug: string, caption: string, page: Page = this.page): Promise<void> {
    this.step++;
    const file = path.join(this.dir, `${String(this.step).padStart(2, '0')}-${slug}.png`);
    await page.screenshot({ path: file });
    this.shots.push(file);
    console.log(`  ${String(this.step).padStart(2)}. ${caption}\n      ${path.relative(process.cwd(), file) || file}`);
  }
}

async function runTour(page: Page, server: DemoServer, camera: Camera): Promise<void> {
  const toolbar = new Toolbar(page, server);
  const lastReply = (agent = 'demo/guide') => toolbar.doneReplies(agent).last();

  await toolbar.goto();
  await expect(toolbar.launcher).toBeVisible();
  await camera.shoot('page-with-launcher', 'The demo page with the collapsed toolbar (bottom right)');

  await toolbar.open();
  await expect(toolbar.log.getByRole('group', { name: 'Suggestions' })).toBeVisible();
  await camera.shoot('panel-open', "The open panel: connected, no chat yet; suggestions to send and the agent's first commands to start with");

  await expect((await toolbar.ask('help')).getByRole('table')).toBeVisible();
  await camera.shoot('help', 'The first message starts a chat (titled after it); the guide answers with a table');

  await toolbar.send('markdown');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('debounce');
  await camera.shoot('markdown-streaming', 'A markdown reply while it streams');
  await expect(lastReply().locator('blockquote')).toBeVisible();
  await camera.shoot('markdown-done', 'The finished reply: highlighted code with Wrap and Copy, a list, a quote, a footnote');
  await lastReply().hover();
  await expect(lastReply().getByRole('button', { name: 'Regenerate' })).toBeVisible();
  await camera.shoot('message-actions', 'Hovering a reply: one row of icon buttons (Regenerate on the last one, Copy), then its time');
  await lastReply().getByRole('button', { name: 'Regenerate' }).click();
  await expect(lastReply().getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await camera.shoot('versions', 'Regenerated: a second version of the same answer, ‹ 2/2 › in the same row switches between them');

  await toolbar.composer.fill('/');
  await expect(toolbar.panel.getByRole('listbox', { name: 'Commands of demo/guide' })).toBeVisible();
  await camera.shoot('commands', "Typing / offers the agent's own commands (arrow keys, then Tab or Enter)");
  await toolbar.composer.fill('');

  const thought = await toolbar.ask('think');
  await thought.locator('details.ab-reasoning summary').click();
  await camera.shoot('reasoning', 'Reasoning, collapsed by default, opened');

  const docs = await toolbar.ask('docs');
  await docs.getByRole('group', { name: 'Tool call search_docs' }).locator('.ab-tool-head').click();
  await camera.shoot('backend-tool', 'A backend tool call, opened: its input and its result in one card');

  // Two agent messages: the tool call, then (after the tool message) the answer.
  await toolbar.send('system');
  await expect(lastReply()).toContainText('The agent runs on');
  await camera.shoot('cli-tool', 'A cli tool run in the server process: one card for the call and its result (closed once done), then the answer');

  await toolbar.pickButton.click();
  await page.locator('#page-title').click();
  // The demo page's filter form carries the marks agentbar/vite adds in dev, so its chip names its component.
  await page.getByRole('button', { name: 'Filter orders' }).click();
  await page.getByRole('cell', { name: '$89.50' }).hover();
  await expect(page.locator('agentbar-toolbar .ab-outline.ab-picked')).toHaveCount(2);
  await expect(toolbar.panel.getByRole('button', { name: 'Remove button.primary in FilterButton', exact: true })).toBeVisible();
  await camera.shoot('picking', 'Pick elements: picked elements outlined, the hovered one labelled, chips in the composer (one names the component that wrote its element; its file and line are in the tooltip, and go to the agent)');
  await page.keyboard.press('Escape');
  await expect(toolbar.pickButton).toHaveAttribute('aria-pressed', 'false');

  await toolbar.send('selection');
  const card = toolbar.log.getByRole('group', { name: 'Tool call get_selected_elements' }).last();
  await expect(card.getByRole('button', { name: 'Approve' })).toBeVisible();
  await camera.shoot('approval', 'A toolbar tool waiting for approval (Approve; Always allow, which moves the chat to Trusting mode; Reject with a reason)');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(lastReply()).toContainText('You selected 2 elements');
  await expect(lastReply()).toContainText('written by FilterButton (src/FilterButton.tsx:3:5)');
  await expect(card.locator('.ab-tool-answer')).toHaveText('Approved');
  await camera.shoot('approved', 'Approved (said in the card, closed once done): the toolbar read the picked elements; the agent lists them, with the component that wrote the button and where');
  // The message went with a picture of each pick, cut from the page around it.
  const sentWithPicks = toolbar.userMessages.filter({ hasText: 'selection' }).last();
  await expect(sentWithPicks.getByRole('img')).toHaveCount(2);
  await sentWithPicks.scrollIntoViewIfNeeded();
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(0);
  await camera.shoot('pick-pictures', 'The message as sent: a picture of each pick goes with it, for the agent to see; its chips moved from the box onto it');

  await toolbar.choose('Mode', 'Trusting');
  const repliesBefore = await toolbar.doneReplies().count();
  await toolbar.send('selection again');
  // Two replies: the call, and (after the tool's result) the answer, which still reads the picks sent last.
  await expect(toolbar.doneReplies()).toHaveCount(repliesBefore + 2);
  await expect(lastReply()).toContainText('You selected 2 elements');
  await camera.shoot('mode-trusting', "The agent's Mode menu, for this chat: in Trusting mode the guide reads the picked elements without asking");
  await toolbar.choose('Mode', 'Ask first');

  await expect((await toolbar.ask('file')).getByRole('link', { name: 'Download orders.csv' })).toBeVisible();
  await camera.shoot('file', 'A file from the agent, downloadable');

  const png = makePng(64, 40, (x, y) => [30 + x * 3, 80 + y * 4, 230 - x * 2]);
  await page.evaluate(async (base64) => {
    const textarea = document.querySelector('agentbar-toolbar')!.shadowRoot!.querySelector('textarea')!;
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'mockup.png', { type: 'image/png' }));
    textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true, composed: true }));
  }, png.toString('base64'));
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n') });
  // "file" gets a short answer, so the sent attachments stay in view.
  await toolbar.composer.fill('Here is the mockup file and my notes');
  await expect(toolbar.panel.getByRole('button', { name: 'Remove notes.md' })).toBeVisible();
  await camera.shoot('attachments', 'A pasted image and a chosen file as chips, before sending');
  const before = await toolbar.doneReplies().count();
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages.last().getByRole('img', { name: 'Attached image' })).toBeVisible();
  await expect(toolbar.doneReplies()).toHaveCount(before + 1);
  await camera.shoot('attachments-sent', 'The sent message with the image preview and the file');

  await toolbar.send('long');
  const streaming = toolbar.log.getByRole('article', { name: 'demo/guide, streaming' });
  await expect(streaming).toContainText('Step 3 of a long plan');
  await camera.shoot('long-streaming', 'A long reply streaming, with the Stop button');
  await toolbar.composer.fill('Then the footer, please');
  await toolbar.composer.press('Enter');
  await expect(toolbar.panel.locator('.ab-queued')).toContainText('Then the footer, please');
  await camera.shoot('queued', 'A message sent while the agent works waits over the box, and goes by itself when the reply ends');
  await toolbar.stopButton.click();
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, stopped' })).toBeVisible();
  await expect(toolbar.composer).toHaveValue('Then the footer, please');
  await camera.shoot('stopped', 'Stopped: the reply ends "stopped", and the waiting message is back in the box, unsent');

  await toolbar.send('fail');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, failed' })).toBeVisible();
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, failed' }).getByRole('button', { name: 'Retry' })).toBeVisible();
  await camera.shoot('failed', 'An agent that throws: the message ends failed with the error, and offers Retry');

  await toolbar.send(Array.from({ length: 40 }, (_, i) => `log line ${i + 1}: GET /api/orders 200 12ms`).join('\n'));
  await expect(toolbar.userMessages.last().getByRole('button', { name: 'Show more' })).toBeVisible();
  await expect(toolbar.stopButton).toBeHidden();
  await camera.shoot('long-message-folded', 'A pasted log folds behind Show more');

  await toolbar.choose('Agent', 'demo/historian');
  await expect(await toolbar.ask('Summarize, please', 'demo/historian')).toContainText('This chat has');
  await camera.shoot('historian', 'Another agent (demo/historian) summarizes the shared history');

  await toolbar.choose('Agent', 'demo/guide');
  await toolbar.newChat();
  await toolbar.ask('Second chat: help');
  await toolbar.chats.getByRole('button', { name: 'Rename chat' }).click();
  await toolbar.chats.getByRole('textbox', { name: 'Chat title' }).fill('Checkout redesign');
  await camera.shoot('rename', 'A second chat, renamed inline');
  await toolbar.chats.getByRole('button', { name: 'Save title' }).click();
  await expect(toolbar.activeChat).toHaveText('Checkout redesign');
  await toolbar.chats.getByRole('button', { name: 'Delete chat' }).click();
  await expect(toolbar.panel.getByRole('dialog', { name: 'Delete chat?' })).toBeVisible();
  await camera.shoot('delete-confirm', 'Deleting a chat asks first');
  await toolbar.panel.getByRole('dialog', { name: 'Delete chat?' }).getByRole('button', { name: 'Cancel' }).click();

  await toolbar.send('long');
  await expect(toolbar.log.getByRole('article', { name: 'demo/guide, streaming' })).toContainText('Step 1');
  await toolbar.chat('help').click();
  await expect(toolbar.alert).toContainText('press Stop before you switch chats');
  await camera.shoot('switch-refused', 'The agent refuses a chat switch while it works, and says why');
  await toolbar.newChatButton.click();
  await expect(toolbar.activeChat).toHaveText('New chat');
  const stopThere = toolbar.panel.getByRole('button', { name: 'Stop demo/guide in “Checkout redesign”' });
  await expect(stopThere).toBeVisible();
  await camera.shoot('stop-elsewhere', 'A new chat while the agent works in another: a line names that chat, with Open and its Stop');
  await stopThere.click();
  await expect(stopThere).toBeHidden();

  const allChats = toolbar.actions.getByRole('button', { name: 'All chats' });
  await allChats.click();
  const list = toolbar.panel.getByRole('dialog', { name: 'All chats' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await camera.shoot('chat-list', 'All chats: each with its agents, size and last activity; open, rename or delete any of them');
  await list.getByRole('searchbox', { name: 'Search chats' }).fill('historian');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await camera.shoot('chat-list-search', 'Searching chats by title or agent');
  await list.getByRole('listitem').first().getByRole('button').first().click();
  await expect(list).toBeHidden();

  await server.stop();
  await expect(toolbar.status).toHaveText(/Reconnecting…|Offline/);
  await camera.shoot('server-down', 'The server stopped: the status says so in words by its dot, and the toolbar waits');
  await server.restart();
  await expect(toolbar.status).toHaveText('Connected', { timeout: 30_000 });
  await expect(toolbar.activeChat).toHaveText('help');
  await camera.shoot('reconnected', 'Back on the same port: reconnected (the green dot alone says it), same chats');

  for (const scheme of ['light', 'dark'] as const) await tourPhone(page, server, camera, scheme);

  // The tour's browser prefers light colours; the Theme button goes round System, Light and Dark.
  const theme = toolbar.actions.getByRole('button', { name: /^Theme: / });
  await theme.click();
  await theme.click();
  await expect(theme).toHaveAccessibleName('Theme: dark');
  await camera.shoot('theme-dark', 'The Theme button (System, Light, Dark): here forced dark on a system that prefers light');
  await lastReply('demo/historian').hover();
  await expect(lastReply('demo/historian').getByRole('button', { name: 'Copy message' })).toHaveCSS('opacity', '1');
  await camera.shoot('dark-message-actions', 'Dark: a reply hovered, its row of icon buttons');
  await toolbar.composer.fill('/');
  await expect(toolbar.panel.getByRole('listbox', { name: 'Commands of demo/guide' })).toBeVisible();
  await camera.shoot('dark-commands', 'Dark: the / menu of commands');
  await toolbar.composer.fill('');
  await allChats.click();
  await expect(list).toBeVisible();
  await camera.shoot('dark-chat-list', 'Dark: all chats');
  await list.getByRole('button', { name: 'Close chat list' }).click();
  await expect(list).toBeHidden();

  // More chats than the strip holds: its cut edge fades and "+N" counts the rest (both themes).
  for (const title of ['help: orders list', 'help: footer links', 'skill review']) {
    await toolbar.newChat();
    await toolbar.ask(title);
  }
  const more = toolbar.panel.getByRole('button', { name: /more chats: show all chats$/ });
  await expect(more).toBeVisible();
  await camera.shoot('dark-tabs-overflow', 'Dark: more chats than fit; the strip fades at the cut and "+N" opens all chats; the skill badge names the skill');
  await theme.click();
  await expect(theme).toHaveAccessibleName('Theme: system');
  await camera.shoot('tabs-overflow', 'Light: the same strip, faded at the cut with "+N"; the skill badge');
  await more.click();
  await expect(list).toBeVisible();
  await camera.shoot('tabs-more-list', '"+N" opens the list of all chats');
  await list.getByRole('button', { name: 'Close chat list' }).click();

  await toolbar.closeButton.click();
  await expect(toolbar.launcher).toBeVisible();
  await camera.shoot('closed', 'Closed again: just the launcher');
}

/** A phone of its own (touch, no hover, `scheme` colours), not the tour's window made narrow: a mouse's hover would show. */
async function tourPhone(page: Page, server: DemoServer, camera: Camera, scheme: 'light' | 'dark'): Promise<void> {
  const phone = await page.context().browser()!.newContext({ viewport: { width: 390, height: 760 }, isMobile: true, hasTouch: true, colorScheme: scheme });
  try {
    const phonePage = await phone.newPage();
    const onPhone = new Toolbar(phonePage, server);
    await onPhone.start();
    await expect(onPhone.sendButton).toBeInViewport();
    await expect(onPhone.doneReplies('demo/historian').last().getByRole('button', { name: 'Copy message' })).toHaveCSS('opacity', '1');
    await camera.shoot(`phone-${scheme}`, `On a phone (${scheme}): a full-screen sheet, Send on the screen, the message actions shown without a hover`, phonePage);
    await onPhone.actions.getByRole('button', { name: 'All chats' }).click();
    await expect(onPhone.panel.getByRole('dialog', { name: 'All chats' })).toBeVisible();
    await camera.shoot(`phone-chat-list-${scheme}`, `On a phone (${scheme}): all chats`, phonePage);
  } finally {
    await phone.close();
  }
}

/** Runs the tour; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseTourArgs(argv);
  } catch (error) {
    console.error(`tour: ${(error as Error).message}\nUsage: npm run tour -- [--headed] [--out DIR]`);
    return 2;
  }
  if (options === 'help') {
    console.log('Usage: npm run tour -- [--headed] [--out DIR]\nDrives the toolbar through its main features and saves a screenshot per step.');
    return 0;
  }
  if (!existsSync(BUNDLE)) {
    console.error(`tour: ${path.relative(process.cwd(), BUNDLE)} is missing: run \`npm run build\` first.`);
    return 1;
  }
  let headless = true;
  if (options.headed) {
    if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) headless = false;
    else console.log('tour: --headed asked, but there is no $DISPLAY: running headless.');
  }

  await mkdir(options.outDir, { recursive: true });
  for (const name of await readdir(options.outDir)) {
    if (/^\d+-[\w-]+\.png$/.test(name)) await rm(path.join(options.outDir, name));
  }

  let server: DemoServer | null = null;
  let browser: Browser | null = null;
  try {
    // Slow enough to catch replies mid-stream, fast enough for a short tour.
    server = await DemoServer.start({ paceMs: 12 });
    console.log(`tour: agentbar server at ${server.httpUrl} (data in ${server.dataDir})`);
    const executablePath = chromiumPath();
    browser = await chromium.launch({ headless, args: BROWSER_ARGS, ...(executablePath ? { executablePath } : {}), ...(headless ? {} : { slowMo: 150 }) });
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
    const camera = new Camera(page, options.outDir);
    console.log(`tour: ${headless ? 'headless' : 'headed'} Chromium; screenshots:`);
    await runTour(page, server, camera);
    console.log(`tour: done, ${camera.shots.length} screenshots in ${options.outDir}`);
    return 0;
  } catch (error) {
    console.error('tour: failed:', error instanceof Error ? error.message : error);
    if (server) console.error(`server output:\n${server.log}`);
    return 1;
  } finally {
    await browser?.close();
    await server?.dispose();
  }
}
