/**
 * The toolbar in a page, found by role and accessible name the way a user (or a screen reader)
 * finds it; shared by the browser tests and the tour.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { DemoServer } from './demo-server.ts';

/** The toolbar in one page, found by role and accessible name as a user would find it. */
export class Toolbar {
  constructor(
    readonly page: Page,
    readonly server: DemoServer,
  ) {}

  get launcher(): Locator {
    return this.page.getByRole('button', { name: 'Open agentbar' });
  }
  get panel(): Locator {
    return this.page.getByRole('region', { name: 'agentbar' });
  }
  get actions(): Locator {
    return this.panel.getByRole('group', { name: 'Actions' });
  }
  get newChatButton(): Locator {
    return this.actions.getByRole('button', { name: 'New chat' });
  }
  get closeButton(): Locator {
    return this.actions.getByRole('button', { name: 'Close agentbar' });
  }
  get chats(): Locator {
    return this.panel.getByRole('group', { name: 'Chats' });
  }
  /** The chat buttons (one per chat; rename and delete are extra buttons beside the active one). */
  get chatTabs(): Locator {
    return this.chats.locator('.ab-tab-btn');
  }
  get activeChat(): Locator {
    return this.chats.locator('button[aria-current="true"]');
  }
  chat(title: string): Locator {
    return this.chats.getByRole('button', { name: title, exact: true });
  }
  /** The connection's status in the header (other live regions, such as a waiting message, announce too). */
  get status(): Locator {
    return this.panel.locator('.ab-status').getByRole('status');
  }
  get alert(): Locator {
    return this.panel.getByRole('alert');
  }
  get log(): Locator {
    return this.panel.getByRole('log', { name: 'Messages' });
  }
  get composer(): Locator {
    return this.panel.getByRole('textbox', { name: 'Message' });
  }
  get sendButton(): Locator {
    return this.panel.getByRole('button', { name: 'Send', exact: true });
  }
  get stopButton(): Locator {
    return this.panel.getByRole('button', { name: 'Stop', exact: true });
  }
  get pickButton(): Locator {
    return this.panel.getByRole('button', { name: 'Pick elements' });
  }
  get attachButton(): Locator {
    return this.panel.getByRole('button', { name: 'Attach files' });
  }
  get agentSelect(): Locator {
    return this.panel.getByRole('combobox', { name: 'Agent' });
  }
  /** One of the composer's menus of options with descriptions: Agent, Mode. */
  menu(name: 'Agent' | 'Mode'): Locator {
    return this.panel.getByRole('combobox', { name, exact: true });
  }
  /** Opens the menu and clicks the option whose name starts with `option` (a description follows it). */
  async choose(name: 'Agent' | 'Mode', option: string): Promise<void> {
    await this.menu(name).click();
    await this.panel.getByRole('listbox', { name }).getByRole('option', { name: option }).first().click();
    await expect(this.menu(name)).toHaveText(option);
  }
  /** The pill that brings a list the user scrolled away from back to its end. */
  get latestButton(): Locator {
    return this.panel.getByRole('button', { name: 'Scroll to latest' });
  }
  /** How far the message list is scrolled from its end, in px (under 2: at the end). */
  distanceFromEnd(): Promise<number> {
    return this.log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  }
  get userMessages(): Locator {
    return this.log.getByRole('article', { name: 'You', exact: true });
  }
  /** Every reply of `agent`, whatever its status ("demo/guide, streaming" included). */
  replies(agent = 'demo/guide'): Locator {
    return this.log.getByRole('article', { name: agent });
  }
  /** Replies of `agent` that ended `done` (their name carries no status). */
  doneReplies(agent = 'demo/guide'): Locator {
    return this.log.getByRole('article', { name: agent, exact: true });
  }

  /** Signs in with the token and loads the demo page (it stores the browser key the server hands it). */
  async goto(): Promise<void> {
    await this.page.goto(this.server.pageUrl);
  }

  /** Opens the panel (unless a saved preference already did) and waits until it is connected. */
  async open(): Promise<void> {
    await expect(this.launcher.or(this.panel)).toBeVisible();
    if (await this.launcher.isVisible()) await this.launcher.click();
    await expect(this.status).toHaveText('Connected');
  }

  async start(): Promise<void> {
    await this.goto();
    await this.open();
  }

  /**
   * Opens a new chat from the header and waits until it is the active, empty one. "+" creates one
   * only when no empty chat exists (else it goes to that one), so the count grows by at most one.
   */
  async newChat(): Promise<void> {
    const hadEmpty = (await this.chatTabs.filter({ hasText: /^New chat$/ }).count()) > 0;
    const before = await this.chatTabs.count();
    await this.newChatButton.click();
    await expect(this.chatTabs).toHaveCount(hadEmpty ? before : before + 1);
    await expect(this.activeChat).toHaveText('New chat');
    await expect(this.log).toContainText('No messages yet');
  }

  /** Types a message and sends it with the Send button; resolves once the composer is cleared. */
  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.sendButton.click();
    await expect(this.composer).toHaveValue('');
  }

  /**
   * Sends a message and waits until the agent is through with it, however its reply ended (done,
   * failed): the message shows, nothing streams, nothing runs. The agent answers one at a time.
   */
  async sendAndSettle(text: string): Promise<void> {
    const before = await this.userMessages.count();
    await this.send(text);
    await expect(this.userMessages).toHaveCount(before + 1);
    await expect(this.log.getByRole('article', { name: /, streaming$/ })).toHaveCount(0);
    await expect(this.stopButton).toBeHidden();
  }

  /** Sends a message and waits for one more finished (`done`) reply of `agent`; returns that reply. */
  async ask(text: string, agent = 'demo/guide'): Promise<Locator> {
    const before = await this.doneReplies(agent).count();
    await this.send(text);
    await expect(this.doneReplies(agent)).toHaveCount(before + 1);
    return this.doneReplies(agent).nth(before);
  }
}
