/**
 * Chats on disk, crash-safe and cheap to stream into.
 *
 * Layout under DATA_DIR: `meta.json` (meta-file.ts) and `chats/<id>.jsonl` (header line + one
 * message per line, always replaced atomically) with `chats/<id>.journal` (append-only op batches
 * since that file was written). Streamed deltas are buffered, merged and appended to the journal at
 * most every `writeDelayMs`; the chat file is rewritten ("compacted") only when that is cheap
 * relative to the journal (compaction-policy.ts), so a long reply costs about one byte per streamed
 * byte plus one final rewrite. This file decides when each chat is written or read (one task at a
 * time per chat, a timer for the rest, retries after failures); chat-on-disk.ts does the writing
 * and reading of one chat's files.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ChatInfo, Message, Op } from '../../shared/schemas.ts';
import { OpBuffer } from '../sync/op-buffer.ts';
import { removeFile, type IoCounters } from './atomic-file.ts';
import { ChatOnDisk, type DiskContext } from './chat-on-disk.ts';
import { sweepTempFiles } from './chat-files.ts';
import { parseChatFileName } from './chat-paths.ts';
import { StorageError, UnreadableChatError, type ChatRepository, type ChatSource, type LoadedIndex, type LogFn } from './chat-repository.ts';
import { shouldCompact, shouldCompactOnClose } from './compaction-policy.ts';
import { createMetaFile } from './meta-file.ts';
import { SerialQueue } from './serial-queue.ts';

export { createMemoryChatRepository } from './memory-chat-repository.ts';

export interface FileChatRepositoryOptions {
  /** DATA_DIR; chats go in DATA_DIR/chats/. */
  dir: string;
  log?: LogFn;
  /** Longest time a non-urgent change waits in memory. Default 1000. */
  writeDelayMs?: number;
}

export interface FileChatRepository extends ChatRepository {
  /** Bytes written to disk so far (chat files, journals, meta). */
  readonly bytesWritten: number;
  /** Bytes read from disk so far. */
  readonly bytesRead: number;
  readonly chatsDir: string;
}

/** Changes held in memory beyond this are written at once rather than at the timer. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** Files opened at once by `open()`. */
const OPEN_CONCURRENCY = 16;
const MAX_RETRY_DELAY_MS = 30_000;

/** What the repository tracks of one chat: its files, and the writes waiting for them. */
interface ChatState {
  readonly disk: ChatOnDisk;
  /** One write or read of the chat's files at a time. */
  readonly queue: SerialQueue;
  readonly pending: OpBuffer;
  /** The server's view of the chat, from the last record call; read when a write starts. */
  source: ChatSource | null;
  /** A write task is queued and has not started yet. */
  scheduled: boolean;
  /** A message ended: a good moment to compact. */
  urgent: boolean;
  /** recordInfo was called since the last write. */
  infoRequested: boolean;
  deleted: boolean;
  /** Why the last write failed; null once one succeeded. */
  lastError: unknown;
  /**
   * A rewrite failed: until an append succeeds, append only, since a rewrite needs free space the
   * size of the whole chat and an append only that of what is pending.
   */
  appendOnly: boolean;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function defaultLog(level: 'info' | 'warn' | 'error', message: string): void {
  if (level !== 'info') console.error(`[agentbar persistence] ${level}: ${message}`);
}

/**
 * Opens (lazily) the chat store under `options.dir`.
 *
 * @example
 * const repo = createFileChatRepository({ dir: dataDir });
 * const index = await repo.open();
 * repo.recordChange(chatId, [{ op: 'append', path: '/3/content/0/text', value: 'Hel' }], chats.sourceOf(chatId));
 * await repo.close();
 */
export function createFileChatRepository(options: FileChatRepositoryOptions): FileChatRepository {
  const dataDir = path.resolve(options.dir);
  const chatsDir = path.join(dataDir, 'chats');
  const log: LogFn = options.log ?? defaultLog;
  const writeDelayMs = Math.max(0, options.writeDelayMs ?? 1000);
  const counters: IoCounters = { bytesWritten: 0, bytesRead: 0 };

  const chats = new Map<string, ChatState>();
  /** Chats with changes waiting for the timer. */
  const dirty = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let closed = false;
  let closing: Promise<void> | null = null;
  let dirsReady: Promise<void> | null = null;

  function safeLog(level: 'info' | 'warn' | 'error', message: string): void {
    try {
      log(level, message);
    } catch {
      // a broken logger must not break persistence
    }
  }

  function ensureDirs(): Promise<void> {
    dirsReady ??= fsp.mkdir(chatsDir, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => {
        dirsReady = null;
        throw error;
      },
    );
    return dirsReady;
  }

  const meta = createMetaFile({ path: path.join(dataDir, 'meta.json'), counters, log: safeLog, ensureDirs });
  const diskContext: DiskContext = { chatsDir, counters, log: safeLog, ensureDirs };

  /** The chat's state, created on first use; throws for an invalid id before anything else. */
  function stateOf(chatId: string): ChatState {
    let state = chats.get(chatId);
    if (!state) {
      state = {
        disk: new ChatOnDisk(chatId, diskContext),
        queue: new SerialQueue(),
        pending: new OpBuffer(),
        source: null,
        scheduled: false,
        urgent: false,
        infoRequested: false,
        deleted: false,
        lastError: null,
        appendOnly: false,
      };
      chats.set(chatId, state);
    }
    return state;
  }

  // ------------------------------------------------------------------ scheduling

  function scheduleTimer(): void {
    if (timer || closed) return;
    const delay = failures === 0 ? writeDelayMs : Math.min(MAX_RETRY_DELAY_MS, Math.max(writeDelayMs, 100) * 2 ** failures);
    timer = setTimeout(() => {
      timer = null;
      for (const chatId of [...dirty]) startWrite(chatId);
    }, delay);
  }

  /** Queues a write of the chat; it starts in this tick when the chat's queue is idle. */
  function startWrite(chatId: string): void {
    dirty.delete(chatId);
    const state = chats.get(chatId);
    if (!state || state.scheduled || state.deleted) return;
    state.scheduled = true;
    state.queue
      .run(() => writeChat(chatId, state))
      .then(
        () => {
          failures = 0;
          state.lastError = null;
        },
        (error: unknown) => {
          failures = Math.min(failures + 1, 10);
          state.lastError = error;
          safeLog('error', `Could not save chat ${chatId} (${state.disk.paths.chat}): ${errorText(error)}; will retry`);
          if (!state.deleted && chats.get(chatId) === state) {
            dirty.add(chatId);
            scheduleTimer();
          }
        },
      );
  }

  // ------------------------------------------------------------------ writing

  async function writeChat(chatId: string, state: ChatState): Promise<void> {
    state.scheduled = false;
    if (state.deleted) return;
    const urgent = state.urgent;
    const infoRequested = state.infoRequested;
    state.urgent = false;
    state.infoRequested = false;
    const info = state.source?.info;
    const messages = state.source?.messages;
    if (!info && infoRequested) {
      safeLog('warn', `Chat ${chatId}: its info changed but the server no longer has the chat; the change is not saved`);
    }
    const canAppend = state.disk.onDisk && !state.disk.forceCompact;
    if (info && messages && !(state.appendOnly && canAppend) && shouldCompact(state.disk.sizes(state.pending.size), urgent)) {
      try {
        await state.disk.compact(info, messages, state.pending);
        return;
      } catch (error) {
        if (!canAppend) throw error;
        // The old file and journal are intact and the ops are pending again: append them instead.
        state.appendOnly = true;
        safeLog('warn', `Could not rewrite chat ${chatId} (${errorText(error)}); appending to its journal instead`);
      }
    }
    if (!state.disk.onDisk) {
      // A chat never written whose messages are not in memory: nothing to anchor a journal to.
      if (!state.pending.isEmpty || info) {
        safeLog('warn', `Chat ${chatId} changed but its messages are not available; keeping the change in memory`);
      }
      return;
    }
    await state.disk.appendJournal(info, state.pending, urgent);
    state.appendOnly = false;
  }

  // ------------------------------------------------------------------ reading

  async function open(): Promise<LoadedIndex> {
    await ensureDirs();
    await sweepTempFiles(dataDir, await fsp.readdir(dataDir), safeLog);
    const names = await fsp.readdir(chatsDir);
    await sweepTempFiles(chatsDir, names, safeLog);
    const chatIds: string[] = [];
    const journals = new Set<string>();
    for (const name of names) {
      const parsed = parseChatFileName(name);
      if (parsed?.kind === 'chat') chatIds.push(parsed.chatId);
      else if (parsed?.kind === 'journal') journals.add(parsed.chatId);
    }
    const infos: ChatInfo[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chatIds.length) {
        const chatId = chatIds[next++]!;
        const state = stateOf(chatId);
        const info = await state.disk.readIndex(journals.has(chatId));
        if (info) infos.push(info);
        else chats.delete(chatId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, chatIds.length) }, worker));
    const known = new Set(chatIds);
    for (const chatId of journals) {
      // A journal without its chat file is what a crash during deleteChat leaves.
      if (known.has(chatId)) continue;
      const file = path.join(chatsDir, chatId + '.journal');
      try {
        await removeFile(file);
        safeLog('info', `Removed ${file}, left by an unfinished delete`);
      } catch (error) {
        safeLog('warn', `Could not remove ${file}: ${errorText(error)}`);
      }
    }
    const saved = await meta.read();
    infos.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
    const ids = new Set(infos.map((i) => i.id));
    const activeChatId = saved.activeChatId !== null && ids.has(saved.activeChatId) ? saved.activeChatId : null;
    return { chats: infos, activeChatId, agentState: saved.agentState };
  }

  async function readChat(chatId: string, state: ChatState): Promise<Message[]> {
    try {
      return await state.disk.read();
    } catch (error) {
      if (error instanceof UnreadableChatError) {
        // Its files were set aside: the chat is gone for this process.
        chats.delete(chatId);
        state.deleted = true;
      }
      throw error;
    }
  }

  // ------------------------------------------------------------------ the interface

  function assertOpen(what: string, chatId?: string): boolean {
    if (!closed) return true;
    safeLog('warn', `${what}${chatId ? ` of chat ${chatId}` : ''} after close was ignored`);
    return false;
  }

  function recordChange(chatId: string, ops: Op[], source: ChatSource, recordOptions?: { urgent?: boolean }): void {
    const state = stateOf(chatId); // throws for an invalid id, before anything else
    if (!assertOpen('A change', chatId)) return;
    if (state.deleted) return;
    state.source = source;
    try {
      state.pending.record(ops);
    } catch (error) {
      // Unserializable values: the journal cannot carry them, a rewrite from memory may.
      state.disk.forceCompact = true;
      safeLog('error', `Could not record a change of chat ${chatId}: ${errorText(error)}`);
    }
    if (recordOptions?.urgent || state.pending.size > MAX_PENDING_BYTES) {
      if (recordOptions?.urgent) state.urgent = true;
      startWrite(chatId);
    } else {
      dirty.add(chatId);
      scheduleTimer();
    }
  }

  function recordInfo(chatId: string, source: ChatSource): void {
    const state = stateOf(chatId);
    if (!assertOpen('An info change', chatId)) return;
    if (state.deleted) return;
    state.source = source;
    state.infoRequested = true;
    startWrite(chatId);
  }

  async function loadMessages(chatId: string): Promise<Message[]> {
    const state = stateOf(chatId); // throws for an invalid id, before anything else
    // What was recorded but not yet written belongs to the chat too: write it first.
    if (!state.pending.isEmpty) startWrite(chatId);
    try {
      return await state.queue.run(() => readChat(chatId, state));
    } finally {
      if (!state.disk.onDisk && state.pending.isEmpty && !state.queue.busy && chats.get(chatId) === state) chats.delete(chatId);
    }
  }

  async function deleteChat(chatId: string): Promise<void> {
    const state = stateOf(chatId);
    try {
      // The chat is dropped only once its file is gone: a refused removal leaves everything as it was.
      await state.queue.run(async () => {
        await state.disk.remove();
        state.deleted = true;
        state.pending.clear();
        dirty.delete(chatId);
      });
    } catch (error) {
      safeLog('error', `Could not delete chat ${chatId} (${state.disk.paths.chat}): ${errorText(error)}`);
      throw new StorageError(`Could not delete the chat from disk (${errorText(error)}); it is kept as it was.`, (error as NodeJS.ErrnoException).code);
    }
    if (chats.get(chatId) === state) chats.delete(chatId);
  }

  async function flush(): Promise<void> {
    meta.startWrite();
    for (const chatId of [...dirty]) startWrite(chatId);
    await Promise.all([meta.idle(), ...[...chats.values()].map((s) => s.queue.idle())]);
    const errors = [...chats.values()].filter((s) => !s.deleted && s.lastError !== null).map((s) => s.lastError);
    if (meta.lastError !== null) errors.push(meta.lastError);
    if (errors.length > 0) throw StorageError.from(errors);
  }

  async function compactForClose(): Promise<void> {
    const tasks: Promise<void>[] = [];
    for (const [chatId, state] of chats) {
      if (state.deleted || !state.disk.onDisk || !shouldCompactOnClose(state.disk)) continue;
      tasks.push(
        state.queue
          .run(async () => {
            const info = state.source?.info;
            const messages = state.source?.messages;
            if (info && messages && !state.deleted) await state.disk.compact(info, messages, state.pending);
          })
          .catch((error: unknown) => safeLog('error', `Could not compact chat ${chatId}: ${errorText(error)}`)),
      );
    }
    await Promise.all(tasks);
  }

  /** Close goes on whatever the disk says: what failed was logged, and stays failed. */
  const flushQuietly = () => flush().catch(() => {});

  function close(): Promise<void> {
    closing ??= (async () => {
      await flushQuietly();
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await compactForClose();
      await flushQuietly();
    })();
    return closing;
  }

  return {
    open,
    loadMessages,
    recordChange,
    recordInfo,
    deleteChat,
    setMeta: (value) => {
      if (assertOpen('A meta change')) meta.set(value);
    },
    flush,
    close,
    get bytesWritten() {
      return counters.bytesWritten;
    },
    get bytesRead() {
      return counters.bytesRead;
    },
    chatsDir,
  };
}
