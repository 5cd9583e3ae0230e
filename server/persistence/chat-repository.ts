/**
 * The contract between the server and chat storage (PROTOCOL §5 "Chats live as files… written
 * atomically"). The server owns the chats in memory and reports every change here as ops; a
 * repository makes them durable without ever rewriting a chat per streamed token.
 */
import type { ChatInfo, Message, Op } from '../../shared/schemas.ts';

export interface LoadedIndex {
  /** Every readable chat, most recently updated first. */
  chats: ChatInfo[];
  /** The active chat when it is one of `chats`, else null. */
  activeChatId: string | null;
  agentState: Record<string, unknown>;
}

export interface RepositoryMeta {
  activeChatId: string | null;
  agentState: Record<string, unknown>;
}

/**
 * A live view of one chat as the server holds it, handed to the repository with every change and
 * read when a write starts: the repository never asks the server for a chat, so the two need no
 * wiring beyond the calls themselves.
 */
export interface ChatSource {
  /** The chat's info now; undefined once the chat is gone. */
  readonly info: ChatInfo | undefined;
  /**
   * The chat's messages now, with every recorded op applied; undefined while they are not in
   * memory. The repository then never rewrites the chat file from it, it only appends the ops.
   */
  readonly messages: Message[] | undefined;
}

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface ChatRepository {
  /**
   * Called once at start. Sweeps leftover temp files, reads only each chat's header, moves corrupt
   * files aside and returns the chat infos and the meta.
   */
  open(): Promise<LoadedIndex>;
  /**
   * Reads one chat's messages with crash recovery applied: a `streaming` message comes back
   * `interrupted`, and so does every tool call left `awaiting-approval` or `running` (no run
   * survives a restart to answer it). Rejects for an invalid or unknown id, and for an unreadable
   * file (which is moved aside first).
   */
  loadMessages(chatId: string): Promise<Message[]>;
  /**
   * Records a change of one chat: `ops` are relative to the chat's messages array
   * (`{op:'append', path:'/3/content/0/text', value:'abc'}`, `{op:'add', path:'/-', value: msg}`).
   * They are serialized at once, so the caller may keep mutating its objects; `chat` is read when
   * the write starts. Written within `writeDelayMs`; `urgent` (a message ended, chat created)
   * starts the write in this tick. Throws for an invalid id.
   */
  recordChange(chatId: string, ops: Op[], chat: ChatSource, options?: { urgent?: boolean }): void;
  /** Marks the chat's info (title, times, count) changed; written at once. Throws for an invalid id. */
  recordInfo(chatId: string, chat: ChatSource): void;
  /**
   * Removes the chat's files; pending changes of it are dropped. Rejects for an invalid id, and
   * with `StorageError` when the files could not be removed: the chat then stays as it was.
   */
  deleteChat(chatId: string): Promise<void>;
  /** The active chat and per-agent state; written in this tick, the latest value wins. */
  setMeta(meta: RepositoryMeta): void;
  /**
   * Writes everything pending and resolves once it is on disk. Rejects with `StorageError` when
   * something could not be written (disk full, read-only, out of file handles): the changes stay
   * in memory and are retried until the disk takes them.
   */
  flush(): Promise<void>;
  /** Flushes, compacts what it can and stops the timers. Never rejects; safe to call more than once. */
  close(): Promise<void>;
}

/** Thrown before any file-system access when a chat id could escape the chats folder. */
export class InvalidChatIdError extends Error {
  constructor(chatId: unknown) {
    super(`Invalid chat id: ${JSON.stringify(String(chatId).slice(0, 80))}`);
    this.name = 'InvalidChatIdError';
  }
}

/** Thrown by `loadMessages` for a valid id that has no chat. */
export class ChatNotFoundError extends Error {
  constructor(chatId: string) {
    super(`Chat not found: ${chatId}`);
    this.name = 'ChatNotFoundError';
  }
}

/** Thrown by `loadMessages` when the chat's file could not be parsed; it was moved aside first. */
export class UnreadableChatError extends Error {
  constructor(chatId: string, reason: string) {
    super(`Chat ${chatId} is unreadable (${reason}); its file was moved aside`);
    this.name = 'UnreadableChatError';
  }
}

/**
 * The disk refused a write or a removal (ENOSPC, EROFS, EACCES, EMFILE, …). What was being written
 * is kept in memory and retried; the server answers the request with the `storage` code.
 */
export class StorageError extends Error {
  /** The system error code when there is one, such as `ENOSPC`. */
  readonly errno: string | undefined;
  constructor(message: string, errno?: string) {
    super(message);
    this.name = 'StorageError';
    this.errno = errno;
  }

  /** Wraps the first of `errors` for a user: what failed, and that nothing is lost yet. */
  static from(errors: readonly unknown[], what = 'save the latest changes'): StorageError {
    const first = errors[0];
    const errno = (first as NodeJS.ErrnoException | undefined)?.code;
    const detail = first instanceof Error ? first.message : String(first);
    return new StorageError(`Could not ${what} to disk (${detail}). agentbar keeps them in memory and retries until the disk accepts them; free some space or fix the folder's permissions.`, errno);
  }
}
