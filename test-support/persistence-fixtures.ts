/** Chats for persistence tests and the bench: every part type, plus a fake server holding them. */
import { applyPatchInPlace } from '../shared/patch.ts';
import type { AssistantMessage, ChatInfo, Message, Op, ToolMessage, UserMessage } from '../shared/schemas.ts';
import type { ChatRepository, ChatSource } from '../server/persistence/chat-repository.ts';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function userMessage(id: string, text: string, extra: Partial<UserMessage> = {}): UserMessage {
  return {
    id,
    role: 'user',
    content: [{ type: 'text', text }],
    metadata: { source: 'cli', selectedElements: [] },
    createdAt: 1_700_000_000_000,
    ...extra,
  };
}

export function assistantMessage(id: string, text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    id,
    role: 'assistant',
    agent: 'wisp/concierge',
    content: [{ type: 'text', text }],
    status: 'done',
    createdAt: 1_700_000_000_001,
    ...extra,
  };
}

/** A conversation using every part type and every message role. */
export function everyPartMessages(): Message[] {
  const user: UserMessage = {
    id: 'm_user',
    role: 'user',
    content: [
      { type: 'text', text: 'Make the header "blue"\nplease — ✓ 😀' },
      { type: 'image', image: PNG, mimeType: 'image/png' },
      { type: 'file', data: 'data:text/plain;base64,aGVsbG8=', filename: 'notes.txt', mimeType: 'text/plain' },
    ],
    metadata: {
      source: 'toolbar',
      browser: {
        url: 'http://localhost:5173/',
        title: 'App',
        viewport: { width: 1280, height: 800 },
        devicePixelRatio: 2,
        userAgent: 'Mozilla/5.0',
        locale: 'en-US',
        zoom: 1,
      },
      selectedElements: [
        {
          tagName: 'h1',
          xpath: '/html/body/h1',
          selector: 'h1.title',
          attributes: { class: 'title' },
          textContent: 'Hello',
          boundingClientRect: { x: 0, y: 0, width: 100, height: 40 },
          parent: { tagName: 'body', xpath: '/html/body', attributes: {} },
        },
      ],
    },
    agent: 'wisp/concierge',
    clientMessageId: 'c-1',
    createdAt: 1_700_000_000_000,
  };
  const assistant: AssistantMessage = {
    id: 'm_assistant',
    role: 'assistant',
    agent: 'wisp/concierge',
    content: [
      { type: 'reasoning', text: 'The header is in App.css' },
      { type: 'text', text: 'I will change it.' },
      { type: 'file', data: 'data:text/css;base64,aDF7fQ==', mimeType: 'text/css' },
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'edit_file',
        input: { path: 'App.css', patch: { color: 'blue' } },
        runtime: 'cli',
        requiresApproval: true,
        state: 'done',
      },
      { type: 'tool-result', toolCallId: 'call_0', toolName: 'search', output: { hits: [1, 2] }, isError: false },
    ],
    status: 'failed',
    error: 'Model overloaded',
    createdAt: 1_700_000_000_001,
  };
  const approval: UserMessage = {
    id: 'm_approval',
    role: 'user',
    content: [{ type: 'tool-approval-response', toolCallId: 'call_1', approved: true, reason: 'fine' }],
    metadata: { source: 'toolbar', selectedElements: [] },
    createdAt: 1_700_000_000_002,
  };
  const tool: ToolMessage = {
    id: 'm_tool',
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'edit_file', output: 'ok' }],
    createdAt: 1_700_000_000_003,
  };
  return [user, assistant, approval, tool];
}

/**
 * The part of the server persistence sees: chats in memory, changed by ops that are applied here
 * and reported to the repository, as the server's ChatManager does.
 */
export class FakeServer {
  readonly chats = new Map<string, { info: ChatInfo; messages: Message[] }>();
  /** Chats whose messages the "server" has evicted from memory. */
  readonly unloaded = new Set<string>();
  repo: ChatRepository | null = null;
  private clock = 1_700_000_000_000;

  now(): number {
    return ++this.clock;
  }

  /** Reads of the chat by the repository, for tests that check when it reads. */
  reads: string[] = [];

  /** The live view the repository reads when it writes, as ChatManager.sourceOf gives it. */
  sourceOf(chatId: string): ChatSource {
    const server = this;
    return {
      get info() {
        server.reads.push(chatId);
        return server.chats.get(chatId)?.info;
      },
      get messages() {
        return server.unloaded.has(chatId) ? undefined : server.chats.get(chatId)?.messages;
      },
    };
  }

  private get repository(): ChatRepository {
    if (!this.repo) throw new Error('FakeServer has no repository');
    return this.repo;
  }

  createChat(id: string, title = `Chat ${id}`): void {
    const t = this.now();
    this.chats.set(id, { info: { id, title, createdAt: t, updatedAt: t, messageCount: 0 }, messages: [] });
    this.repository.recordInfo(id, this.sourceOf(id));
  }

  /** Adopts a chat read back from disk. */
  adopt(info: ChatInfo, messages: Message[]): void {
    this.chats.set(info.id, { info: structuredClone(info), messages });
  }

  /** Applies ops to memory and reports them, like the server's ChatManager.edit. */
  edit(chatId: string, ops: Op[], urgent = false): void {
    const chat = this.chats.get(chatId);
    if (!chat) throw new Error(`no chat ${chatId}`);
    applyPatchInPlace(chat.messages, structuredClone(ops));
    chat.info.messageCount = chat.messages.length;
    chat.info.updatedAt = this.now();
    this.repository.recordChange(chatId, ops, this.sourceOf(chatId), { urgent });
  }

  addMessage(chatId: string, message: Message, urgent = true): number {
    const index = this.chats.get(chatId)!.messages.length;
    this.edit(chatId, [{ op: 'add', path: '/-', value: message }], urgent);
    return index;
  }

  rename(chatId: string, title: string): void {
    const chat = this.chats.get(chatId)!;
    chat.info.title = title;
    chat.info.updatedAt = this.now();
    this.repository.recordInfo(chatId, this.sourceOf(chatId));
  }
}
