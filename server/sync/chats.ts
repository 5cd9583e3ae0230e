/**
 * The chats: their infos in the state, the active chat's messages, and every edit of a chat's
 * messages as ops that go both to the state (when the chat is active) and to persistence.
 */
import { isValidId, makeId } from '../../shared/ids.ts';
import { ProtocolError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { applyPatchInPlace } from '../../shared/patch.ts';
import { selectShownMessages } from '../../shared/versions.ts';
import type { ChatInfo, ContextUsage, Message, Op } from '../../shared/schemas.ts';
import { ChatNotFoundError, StorageError, UnreadableChatError, type ChatRepository, type ChatSource } from '../persistence/chat-repository.ts';
import { titleFromMessageText } from './chat-title.ts';
import { isSameUsage } from '../sdk/context-usage.ts';
import { messagePath, statePath } from './state-paths.ts';
import type { StateStore } from './state-store.ts';

interface LoadedChat {
  messages: Message[];
  /** message id → index; messages are only ever appended, so indexes are stable. */
  index: Map<string, number>;
  /** clientMessageId → messageId, remembered for the life of the chat (PROTOCOL §5). */
  clientIds: Map<string, string>;
  /**
   * The messages' size as UTF-8 JSON: exact at load, then grown by each op's value (a replace
   * counts whole, so it can only overestimate).
   */
  bytes: number;
}

const MAX_LOADED_CHATS = 8;
export const DEFAULT_TITLE = 'New chat';

/** A title from the first words of a message, for chats created without one. */
function titleFrom(message: Message): string | null {
  if (message.role !== 'user') return null;
  return titleFromMessageText(message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n'));
}

/** The title the chat's first message with words gave it (none: null). */
function derivedTitle(messages: readonly Message[]): string | null {
  for (const message of messages) {
    const title = titleFrom(message);
    if (title) return title;
  }
  return null;
}

function indexMessages(messages: Message[]): LoadedChat {
  const index = new Map<string, number>();
  const clientIds = new Map<string, string>();
  messages.forEach((m, i) => {
    index.set(m.id, i);
    if (m.role === 'user' && m.clientMessageId) clientIds.set(m.clientMessageId, m.id);
  });
  return { messages, index, clientIds, bytes: messages.length === 0 ? 2 : Buffer.byteLength(JSON.stringify(messages), 'utf8') };
}

/** What an op adds to a chat's JSON, about. */
function opBytes(op: Op): number {
  if (op.op === 'append') return Buffer.byteLength(op.value, 'utf8');
  if (op.op === 'add' || op.op === 'replace') return Buffer.byteLength(JSON.stringify(op.value) ?? '', 'utf8');
  return 0;
}

/** A chat this big cannot be activated: its snapshot would pass what clients accept. */
const MAX_ACTIVE_CHAT_BYTES = LIMITS.maxChatBytes + LIMITS.maxFrameBytes;

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Deep-copies a JSON value for persistence, so later in-place edits of the state cannot reach it. */
function cloneOps(ops: readonly Op[]): Op[] {
  return ops.map((op) => (op.op === 'add' || op.op === 'replace' ? { ...op, value: structuredClone(op.value) } : op));
}

export class ChatManager {
  /** Chats whose messages are in memory: the active one, a running one, a few recent ones. */
  private readonly loaded = new Map<string, LoadedChat>();
  /** Chats kept in memory whatever the eviction says, with how many holders each. */
  private readonly pinned = new Map<string, number>();
  /** One live view per chat for persistence (see `sourceOf`). */
  private readonly sources = new Map<string, ChatSource>();
  /** Chats whose files are being deleted, with how many deletes are under way: nothing new may start in them meanwhile. */
  private readonly deleting = new Map<string, number>();
  /** How many chats there are at most (deletes are not counted down); null until first needed. */
  private chatCountAtMost: number | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly repo: ChatRepository,
    /** Called when the active chat changes, so the meta file follows. */
    private readonly onActiveChange: () => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get activeChatId(): string | null {
    return this.store.state.activeChatId;
  }

  info(chatId: string): ChatInfo | undefined {
    return isValidId(chatId) && Object.prototype.hasOwnProperty.call(this.store.state.chats, chatId)
      ? this.store.state.chats[chatId]
      : undefined;
  }

  /** The chat's info, or `not_found`. */
  require(chatId: string): ChatInfo {
    const info = this.info(chatId);
    if (!info) throw new ProtocolError('not_found', `Chat not found: ${chatId}`, 'chatId');
    return info;
  }

  /**
   * The live view of a chat that persistence reads when it writes: its info, and its messages
   * while they are in memory (undefined once evicted).
   *
   * @example repo.recordInfo(chatId, chats.sourceOf(chatId));
   */
  sourceOf(chatId: string): ChatSource {
    let source = this.sources.get(chatId);
    if (!source) {
      const chats = this;
      source = {
        get info() {
          return chats.info(chatId);
        },
        get messages() {
          return chats.loaded.get(chatId)?.messages;
        },
      };
      this.sources.set(chatId, source);
    }
    return source;
  }

  /** Loads a chat's messages into memory (from disk when needed). */
  async load(chatId: string): Promise<LoadedChat> {
    this.require(chatId);
    let loaded = this.loaded.get(chatId);
    if (!loaded) {
      let messages: Message[];
      try {
        messages = await this.repo.loadMessages(chatId);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        if (!(error instanceof UnreadableChatError || error instanceof ChatNotFoundError)) {
          // A passing failure (permissions, too many open files): keep the chat, say what happened.
          throw new ProtocolError('internal', `Chat ${chatId} could not be loaded: ${why}`);
        }
        // The file is gone or was moved aside as unreadable: the chat is gone for this server.
        if (this.info(chatId)) this.store.change([{ op: 'remove', path: statePath.chat(chatId) }]);
        this.sources.delete(chatId);
        throw new ProtocolError('not_found', why, 'chatId');
      }
      // Another request may have loaded it while we waited.
      loaded = this.loaded.get(chatId) ?? indexMessages(messages);
      this.loaded.set(chatId, loaded);
      this.evict();
    }
    return loaded;
  }

  /** The in-memory messages of a loaded chat (the active one always is). */
  messages(chatId: string): Message[] {
    const loaded = this.loaded.get(chatId);
    if (!loaded) throw new ProtocolError('internal', `Chat not loaded: ${chatId}`);
    return loaded.messages;
  }

  messageIndex(chatId: string, messageId: string): number {
    const i = this.loaded.get(chatId)?.index.get(messageId);
    if (i === undefined) throw new ProtocolError('not_found', `Message not found: ${messageId}`);
    return i;
  }

  findByClientId(chatId: string, clientMessageId: string): string | undefined {
    return this.loaded.get(chatId)?.clientIds.get(clientMessageId);
  }

  /** The size of a loaded chat's messages as JSON; 0 when not loaded. */
  sizeOf(chatId: string): number {
    return this.loaded.get(chatId)?.bytes ?? 0;
  }

  /** Whether `bytes` more still fit in the chat (LIMITS.maxChatBytes). */
  hasRoom(chatId: string, bytes: number): boolean {
    return this.sizeOf(chatId) + bytes <= LIMITS.maxChatBytes;
  }

  /**
   * Throws `too_large` unless `bytes` more fit in the chat, so every snapshot stays within what
   * clients accept.
   *
   * @example chats.ensureRoom(chatId, Buffer.byteLength(JSON.stringify(message)), 'This message');
   */
  ensureRoom(chatId: string, bytes: number, what: string): void {
    if (this.hasRoom(chatId, bytes)) return;
    throw new ProtocolError(
      'too_large',
      `${what} (${mib(bytes)} MiB) does not fit in this chat: it holds ${mib(this.sizeOf(chatId))} of at most ${mib(LIMITS.maxChatBytes)} MiB. Start a new chat.`,
    );
  }

  /** Keeps a chat loaded until the matching `unpin` (a run working in it, a switch loading it). */
  pin(chatId: string): void {
    this.pinned.set(chatId, (this.pinned.get(chatId) ?? 0) + 1);
  }

  unpin(chatId: string): void {
    const holders = (this.pinned.get(chatId) ?? 0) - 1;
    if (holders > 0) this.pinned.set(chatId, holders);
    else this.pinned.delete(chatId);
    this.evict();
  }

  private evict(): void {
    if (this.loaded.size <= MAX_LOADED_CHATS) return;
    for (const id of this.loaded.keys()) {
      if (this.loaded.size <= MAX_LOADED_CHATS) break;
      if (id !== this.activeChatId && !this.pinned.has(id)) this.loaded.delete(id);
    }
  }

  /**
   * Creates a chat and makes it active.
   *
   * @example const id = chats.create({ title: 'Fix the header' });
   */
  create(options: { title?: string | undefined; agent?: string | undefined } = {}): string {
    // The cached count only grows here, so it is never below the truth: count for real only near the limit.
    this.chatCountAtMost ??= Object.keys(this.store.state.chats).length;
    if (this.chatCountAtMost >= LIMITS.maxChats) {
      const count = (this.chatCountAtMost = Object.keys(this.store.state.chats).length);
      if (count >= LIMITS.maxChats) {
        throw new ProtocolError('too_large', `This server holds ${count.toLocaleString('en')} chats, the most it keeps; delete some to create more`);
      }
    }
    this.chatCountAtMost++;
    const id = makeId('chat');
    const t = this.now();
    const given = options.title?.trim();
    const info: ChatInfo = { id, title: given || DEFAULT_TITLE, createdAt: t, updatedAt: t, messageCount: 0 };
    if (given) info.titledBy = 'user';
    if (options.agent) info.agent = options.agent;
    this.loaded.set(id, indexMessages([]));
    this.store.change([{ op: 'add', path: statePath.chat(id), value: info }]);
    this.activate(id);
    this.repo.recordInfo(id, this.sourceOf(id));
    return id;
  }

  /** Makes a loaded chat the active one; call `load` first. */
  activate(chatId: string | null): void {
    if (chatId === this.activeChatId && (chatId === null || this.store.state.active)) return;
    if (chatId === null) {
      this.store.change([
        { op: 'replace', path: statePath.activeChatId, value: null },
        { op: 'replace', path: statePath.active, value: null },
      ]);
    } else {
      const loaded = this.loaded.get(chatId);
      if (!loaded) throw new ProtocolError('internal', `Chat not loaded: ${chatId}`);
      if (loaded.bytes > MAX_ACTIVE_CHAT_BYTES) {
        throw new ProtocolError(
          'too_large',
          `This chat is ${mib(loaded.bytes)} MiB, more than a client can be sent at once (${mib(MAX_ACTIVE_CHAT_BYTES)} MiB); it stays on disk, and can be deleted`,
          'chatId',
        );
      }
      // The state holds the very array the chat keeps, so later edits are applied only once; the
      // store serializes the op as it is made, so the frame carries the messages as they are now.
      this.store.change([
        { op: 'replace', path: statePath.activeChatId, value: chatId },
        { op: 'replace', path: statePath.active, value: { chatId, messages: loaded.messages } },
      ]);
      this.evict();
    }
    this.onActiveChange();
  }

  rename(chatId: string, title: string): void {
    this.require(chatId);
    this.store.change([
      { op: 'replace', path: statePath.chatField(chatId, 'title'), value: title },
      { op: 'replace', path: statePath.chatField(chatId, 'updatedAt'), value: this.now() },
      { op: 'add', path: statePath.chatField(chatId, 'titledBy'), value: 'user' },
    ]);
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
  }

  /**
   * An agent's title for the chat (a coding agent names its session once it knows what it is
   * about): taken unless the user named the chat. Returns whether the chat now has it; false for
   * a chat that is gone or that the user named.
   *
   * @example chats.nameByAgent(chatId, 'Fix the login button') // true
   */
  nameByAgent(chatId: string, title: string): boolean {
    const info = this.info(chatId);
    if (!info || info.titledBy === 'user') return false;
    if (info.title === title && info.titledBy === 'agent') return true;
    if (info.titledBy === undefined && info.title !== DEFAULT_TITLE) {
      // A chat kept before `titledBy` existed may bear a name its user gave: only the title made
      // from its first message is the server's to give away (and an unloaded chat is not read here).
      const messages = this.loaded.get(chatId)?.messages;
      if (!messages || derivedTitle(messages) !== info.title) return false;
    }
    this.store.change([
      { op: 'replace', path: statePath.chatField(chatId, 'title'), value: title },
      { op: 'replace', path: statePath.chatField(chatId, 'updatedAt'), value: this.now() },
      { op: 'add', path: statePath.chatField(chatId, 'titledBy'), value: 'agent' },
    ]);
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
    return true;
  }

  /** Records an agent's mode in the chat (`mode.set`, or the agent's own change); nothing when it is already so. */
  setMode(chatId: string, agentId: string, mode: string): void {
    const info = this.require(chatId);
    if (info.modes?.[agentId] === mode) return;
    // The whole record: a handful of agents at most, and one op that needs no pointer into it.
    this.store.change([{ op: 'add', path: statePath.chatField(chatId, 'modes'), value: { ...info.modes, [agentId]: mode } }]);
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
  }

  /** Records an agent's setting in the chat (`setting.set`, or the agent's own change); nothing when it is already so. */
  setSetting(chatId: string, agentId: string, setting: string, value: string): void {
    const info = this.require(chatId);
    if (info.settings?.[agentId]?.[setting] === value) return;
    const next = { ...info.settings, [agentId]: { ...info.settings?.[agentId], [setting]: value } };
    this.store.change([{ op: 'add', path: statePath.chatField(chatId, 'settings'), value: next }]);
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
  }

  /**
   * Records how full an agent's context is in the chat (the agent's own report), or with null
   * takes its report away (it no longer knows: another model answers); nothing when unchanged.
   */
  setUsage(chatId: string, agentId: string, usage: ContextUsage | null): void {
    const info = this.require(chatId);
    const field = statePath.chatField(chatId, 'usage');
    if (usage === null) {
      if (!info.usage || !(agentId in info.usage)) return;
      const { [agentId]: _gone, ...rest } = info.usage;
      // No empty record left behind: a chat no agent reports on looks as it did before any did.
      this.store.change([Object.keys(rest).length > 0 ? { op: 'add', path: field, value: rest } : { op: 'remove', path: field }]);
    } else {
      if (isSameUsage(info.usage?.[agentId], usage)) return;
      this.store.change([{ op: 'add', path: field, value: { ...info.usage, [agentId]: usage } }]);
    }
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
  }

  /** `not_found` once the chat's delete has begun (its files going): nothing new may start in it. */
  requireNotDeleting(chatId: string): void {
    if (this.deleting.has(chatId)) throw new ProtocolError('not_found', `Chat is being deleted: ${chatId}`, 'chatId');
  }

  /**
   * Deletes the chat: its files first, then what clients see, so a disk that refuses (read-only,
   * permissions) leaves the chat everywhere as it was and the request fails with `storage`.
   */
  async delete(chatId: string): Promise<void> {
    this.require(chatId);
    this.deleting.set(chatId, (this.deleting.get(chatId) ?? 0) + 1);
    try {
      await this.repo.deleteChat(chatId);
    } catch (error) {
      if (error instanceof StorageError) throw new ProtocolError('storage', error.message, 'chatId');
      throw error;
    } finally {
      // Two deletes of one chat may overlap: it is being deleted until the last one is over.
      const left = (this.deleting.get(chatId) ?? 1) - 1;
      if (left > 0) this.deleting.set(chatId, left);
      else this.deleting.delete(chatId);
    }
    // Another delete of it may have finished while the files went.
    if (!this.store.state.chats[chatId]) return;
    const ops: Op[] = [{ op: 'remove', path: statePath.chat(chatId) }];
    if (this.activeChatId === chatId) {
      ops.push({ op: 'replace', path: statePath.activeChatId, value: null }, { op: 'replace', path: statePath.active, value: null });
    }
    this.store.change(ops);
    if (ops.length > 1) this.onActiveChange();
    this.loaded.delete(chatId);
    this.pinned.delete(chatId);
    this.sources.delete(chatId);
  }

  /**
   * Applies ops relative to the chat's messages array (`/3/content/0/text`) to memory, to the
   * state when the chat is active, and to persistence.
   */
  edit(chatId: string, ops: readonly Op[], options: { urgent?: boolean } = {}): void {
    const loaded = this.loaded.get(chatId);
    if (!loaded || ops.length === 0) return;
    for (const op of ops) loaded.bytes += opBytes(op);
    if (chatId === this.activeChatId && this.store.state.active) {
      this.store.change(ops.map((op) => ({ ...op, path: statePath.activeMessages + op.path })));
    } else {
      applyPatchInPlace(loaded.messages, cloneOps(ops));
    }
    this.repo.recordChange(chatId, [...ops], this.sourceOf(chatId), options);
  }

  /**
   * Appends a message and updates the chat's count, time and (for user messages) agent. It
   * follows the shown branch's end (`ChatInfo.head`), or `parentId` when given (a new version);
   * it then ends the shown branch itself.
   */
  addMessage(chatId: string, message: Message, options: { urgent?: boolean; parentId?: string | null } = {}): number {
    const loaded = this.loaded.get(chatId);
    if (!loaded) throw new ProtocolError('internal', `Chat not loaded: ${chatId}`);
    const index = loaded.messages.length;
    const previous = loaded.messages[index - 1]?.id ?? null;
    const parent = options.parentId !== undefined ? options.parentId : (this.info(chatId)?.head ?? previous);
    // Only a message that does not follow the one before it says whom it follows: a chat that
    // never branched reads as it always did.
    if (parent !== previous) message.parentId = parent;
    this.edit(chatId, [{ op: 'add', path: messagePath.end, value: message }], options);
    if (this.info(chatId)?.head !== undefined) this.setHead(chatId, null);
    loaded.index.set(message.id, index);
    if (message.role === 'user' && message.clientMessageId) loaded.clientIds.set(message.clientMessageId, message.id);
    const infoOps: Op[] = [
      { op: 'replace', path: statePath.chatField(chatId, 'messageCount'), value: loaded.messages.length },
      { op: 'replace', path: statePath.chatField(chatId, 'updatedAt'), value: this.now() },
    ];
    const agent = message.role === 'user' ? message.agent : undefined;
    if (agent) infoOps.push({ op: 'add', path: statePath.chatField(chatId, 'agent'), value: agent });
    const info = this.info(chatId);
    // Who answered in the chat, for listings of chats whose messages are not loaded.
    const answered = message.role === 'assistant' && !info?.agents?.includes(message.agent);
    if (answered) infoOps.push({ op: 'add', path: statePath.chatField(chatId, 'agents'), value: [...(info?.agents ?? []), message.agent] });
    // Until a message with words names it (a command alone does not), the chat keeps the default.
    const title = info?.title === DEFAULT_TITLE && info.titledBy === undefined ? titleFrom(message) : null;
    if (title) infoOps.push({ op: 'replace', path: statePath.chatField(chatId, 'title'), value: title });
    this.store.change(infoOps);
    if (title || answered) this.repo.recordInfo(chatId, this.sourceOf(chatId));
    return index;
  }

  /**
   * The messages of the chat's shown branch (the chosen version of each answer): what the agent
   * is given as the chat so far. The chat must be loaded.
   */
  shownMessages(chatId: string): readonly Message[] {
    return selectShownMessages(this.messages(chatId), this.info(chatId)?.head);
  }

  /** Ends the shown branch at `messageId`; null: at the chat's last message (the field goes). */
  setHead(chatId: string, messageId: string | null): void {
    const info = this.require(chatId);
    const last = this.loaded.get(chatId)?.messages.at(-1)?.id;
    const head = messageId === last ? null : messageId;
    if ((info.head ?? null) === head) return;
    const field = statePath.chatField(chatId, 'head');
    this.store.change([head === null ? { op: 'remove', path: field } : { op: 'add', path: field, value: head }]);
    this.repo.recordInfo(chatId, this.sourceOf(chatId));
  }

  /** Marks the chat's messages changed now (e.g. a message ended). */
  touch(chatId: string): void {
    if (!this.info(chatId)) return;
    this.store.change([{ op: 'replace', path: statePath.chatField(chatId, 'updatedAt'), value: this.now() }]);
  }
}
