/**
 * A ChatRepository without disk, for tests and embedding: it keeps its own deep copy of every chat,
 * kept current from the recorded ops, so a "restart" on the same repository sees what a file
 * repository would (including crash recovery of `streaming` messages).
 */
import { isValidId } from '../../shared/ids.ts';
import { applyPatchInPlace } from '../../shared/patch.ts';
import type { ChatInfo, Message, Op } from '../../shared/schemas.ts';
import {
  ChatNotFoundError,
  InvalidChatIdError,
  type ChatRepository,
  type ChatSource,
  type LoadedIndex,
  type LogFn,
  type RepositoryMeta,
} from './chat-repository.ts';
import { recoverInterrupted } from './recover-messages.ts';

export interface MemoryChatRepositoryOptions {
  log?: LogFn;
}

interface StoredChat {
  info: ChatInfo;
  messages: Message[];
}

function checkId(chatId: unknown): asserts chatId is string {
  if (!isValidId(chatId)) throw new InvalidChatIdError(chatId);
}

function cloneOp(op: Op): Op {
  return op.op === 'add' || op.op === 'replace' ? { ...op, value: structuredClone(op.value) } : op;
}

/**
 * @example
 * const repo = createMemoryChatRepository();
 * repo.recordInfo(chatId, chats.sourceOf(chatId)); // remembers the chat
 * await repo.loadMessages(chatId); // a copy, with crash recovery applied
 */
export function createMemoryChatRepository(options: MemoryChatRepositoryOptions = {}): ChatRepository {
  const store = new Map<string, StoredChat>();
  let meta: RepositoryMeta = { activeChatId: null, agentState: {} };
  let closed = false;
  const log: LogFn = options.log ?? (() => {});

  function madeUpInfo(chatId: string, messages: readonly Message[], previous?: ChatInfo): ChatInfo {
    const now = Date.now();
    return {
      ...(previous ?? { id: chatId, title: 'Untitled', createdAt: now }),
      updatedAt: now,
      messageCount: messages.length,
    };
  }

  // Without an info from the server the repository knows only what the ops say: the info is then
  // made up (title 'Untitled', count and times from the messages).
  function recordChange(chatId: string, ops: Op[], source: ChatSource, _options?: { urgent?: boolean }): void {
    checkId(chatId);
    if (closed) return log('warn', `A change of chat ${chatId} after close was ignored`);
    const now = source;
    let chat = store.get(chatId);
    if (!chat && now.messages && now.info) {
      // The server's copy already holds these ops.
      store.set(chatId, structuredClone({ info: now.info, messages: now.messages }));
      return;
    }
    if (!chat) {
      chat = { info: now.info ? structuredClone(now.info) : madeUpInfo(chatId, []), messages: [] };
      store.set(chatId, chat);
    }
    try {
      applyPatchInPlace(chat.messages, ops.map(cloneOp));
    } catch (error) {
      if (now.messages) chat.messages = structuredClone(now.messages);
      else log('error', `Could not apply a change of chat ${chatId}: ${error instanceof Error ? error.message : error}`);
    }
    chat.info = now.info ? structuredClone(now.info) : madeUpInfo(chatId, chat.messages, chat.info);
  }

  function recordInfo(chatId: string, source: ChatSource): void {
    checkId(chatId);
    if (closed) return log('warn', `An info change of chat ${chatId} after close was ignored`);
    const now = source;
    const chat = store.get(chatId);
    if (chat) {
      if (now.info) chat.info = structuredClone(now.info);
    } else if (now.info) {
      store.set(chatId, { info: structuredClone(now.info), messages: structuredClone(now.messages ?? []) });
    } else {
      store.set(chatId, { info: madeUpInfo(chatId, []), messages: [] });
    }
  }

  return {
    async open(): Promise<LoadedIndex> {
      // Opening again is a restart of the server on this repository.
      closed = false;
      const chats = [...store.values()].map((c) => structuredClone(c.info));
      chats.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
      const activeChatId = meta.activeChatId !== null && store.has(meta.activeChatId) ? meta.activeChatId : null;
      return { chats, activeChatId, agentState: structuredClone(meta.agentState) };
    },
    async loadMessages(chatId: string): Promise<Message[]> {
      checkId(chatId);
      const chat = store.get(chatId);
      if (!chat) throw new ChatNotFoundError(chatId);
      const messages = structuredClone(chat.messages);
      recoverInterrupted(messages);
      return messages;
    },
    recordChange,
    recordInfo,
    async deleteChat(chatId: string): Promise<void> {
      checkId(chatId);
      store.delete(chatId);
    },
    setMeta(next: RepositoryMeta): void {
      if (closed) return log('warn', 'A meta change after close was ignored');
      try {
        meta = structuredClone({ activeChatId: next.activeChatId, agentState: next.agentState ?? {} });
      } catch (error) {
        log('error', `Could not record the meta: ${error instanceof Error ? error.message : error}`);
      }
    },
    async flush(): Promise<void> {},
    async close(): Promise<void> {
      closed = true;
    },
  };
}
