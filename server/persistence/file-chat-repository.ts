/**
 * Chats on disk, crash-safe and cheap to stream into.
 *
 * Layout under DATA_DIR: `meta.json` and `chats/<id>.jsonl` (header line + one message per line,
 * always replaced atomically) with `chats/<id>.journal` (append-only op batches since that file was
 * written). Streamed deltas are buffered, merged and appended to the journal at most every
 * `writeDelayMs`; the chat file is rewritten ("compacted") only when that is cheap relative to the
 * journal (see `shouldCompact`), so a long reply costs about one byte per streamed byte plus one
 * final rewrite.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { isValidId } from '../../shared/ids.ts';
import { applyPatch } from '../../shared/patch.ts';
import type { ChatInfo, Message, Op } from '../../shared/schemas.ts';
import {
  appendDurably,
  fsyncDir,
  isTempFileName,
  moveAside,
  readLastByte,
  removeFile,
  writeFileAtomic,
  type IoCounters,
} from './atomic-file.ts';
import { encodeChatFile, makeGeneration, parseChatFile, parseHeader, parseMessage } from './chat-file-format.ts';
import { parseChatFileName, resolveChatPaths, type ChatPaths } from './chat-paths.ts';
import {
  ChatNotFoundError,
  UnreadableChatError,
  type ChatRepository,
  type GetChat,
  type LoadedIndex,
  type LogFn,
  type RepositoryMeta,
} from './chat-repository.ts';
import { encodeJournalLine, findLatestInfo, parseJournal, PendingOps, planTailRepair } from './journal.ts';
import { recoverInterrupted } from './recover-messages.ts';
import { SerialQueue } from './serial-queue.ts';

export { createMemoryChatRepository } from './memory-chat-repository.ts';

export interface FileChatRepositoryOptions {
  /** DATA_DIR; chats go in DATA_DIR/chats/. */
  dir: string;
  /** The server's current chat, read when a write starts (never kept). */
  getChat: GetChat;
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

/** A chat file and its journal this small is rewritten whenever a message ends. */
const SMALL_CHAT_BYTES = 64 * 1024;
/** Past this a journal is folded into its chat file even mid-stream, if also 4× the file. */
const JOURNAL_COMPACT_BYTES = 1024 * 1024;
/** Changes held in memory beyond this are written at once rather than at the timer. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** Close folds journals into chat files up to this size, so the next start reads headers only. */
const CLOSE_COMPACT_BYTES = 8 * 1024 * 1024;
/** A header longer than this is damage, not a chat. */
const MAX_HEADER_BYTES = 256 * 1024;
const HEADER_CHUNK_BYTES = 1024;
/** Files opened at once by `open()`. */
const OPEN_CONCURRENCY = 16;
const MAX_RETRY_DELAY_MS = 30_000;

const MetaSchema = v.object({
  activeChatId: v.nullable(v.string()),
  agentState: v.record(v.string(), v.unknown()),
});

interface ChatState {
  readonly paths: ChatPaths;
  readonly queue: SerialQueue;
  readonly pending: PendingOps;
  /** A write task is queued and has not started yet. */
  scheduled: boolean;
  /** A message ended: a good moment to compact. */
  urgent: boolean;
  /** recordInfo was called since the last write. */
  infoRequested: boolean;
  /** The chat file exists (as far as this process knows). */
  onDisk: boolean;
  gen: string;
  fileBytes: number;
  /** Size of the journal file, stale lines included. */
  journalBytes: number;
  /** The journal ends with a newline; null until checked. */
  journalClean: boolean | null;
  /** The info as last written (header or journal), to write it again only when it changed. */
  writtenInfo: string | null;
  writtenInfoKey: string | null;
  /** The last write failed: rewrite the whole chat as soon as its messages are at hand. */
  forceCompact: boolean;
  deleted: boolean;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The info without `updatedAt`: a change of the time alone is not worth a journal entry mid-stream. */
function infoKey(info: ChatInfo): string {
  const { updatedAt: _ignored, ...rest } = info;
  return JSON.stringify(rest);
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
 * const repo = createFileChatRepository({ dir: dataDir, getChat: (id) => chats.getChat(id) });
 * const index = await repo.open();
 * repo.recordChange(chatId, [{ op: 'append', path: '/3/content/0/text', value: 'Hel' }]);
 * await repo.close();
 */
export function createFileChatRepository(options: FileChatRepositoryOptions): FileChatRepository {
  const dataDir = path.resolve(options.dir);
  const chatsDir = path.join(dataDir, 'chats');
  const metaPath = path.join(dataDir, 'meta.json');
  const getChat = options.getChat;
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

  const metaQueue = new SerialQueue();
  let metaJson: string | null = null;
  let metaWritten: string | null = null;
  let metaScheduled = false;

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

  function stateOf(chatId: string): ChatState {
    let state = chats.get(chatId);
    if (!state) {
      state = {
        paths: resolveChatPaths(chatsDir, chatId),
        queue: new SerialQueue(),
        pending: new PendingOps(),
        scheduled: false,
        urgent: false,
        infoRequested: false,
        onDisk: false,
        gen: '',
        fileBytes: 0,
        journalBytes: 0,
        journalClean: null,
        writtenInfo: null,
        writtenInfoKey: null,
        forceCompact: false,
        deleted: false,
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
        },
        (error: unknown) => {
          failures = Math.min(failures + 1, 10);
          safeLog('error', `Could not save chat ${chatId} (${state.paths.chat}): ${errorText(error)}; will retry`);
          if (!state.deleted && chats.get(chatId) === state) {
            dirty.add(chatId);
            scheduleTimer();
          }
        },
      );
  }

  // ------------------------------------------------------------------ writing

  function shouldCompact(state: ChatState, urgent: boolean): boolean {
    if (!state.onDisk || state.forceCompact) return true;
    const journal = state.journalBytes + state.pending.size;
    const file = state.fileBytes;
    // A message ended: rewrite when cheap in absolute terms, or when the journal since the last
    // rewrite is at least four times the old file, so a rewrite costs at most ~1.25 bytes per
    // journal byte. A 50,000-char reply thus costs under 3 disk bytes per char in every case.
    if (urgent && (file + journal <= SMALL_CHAT_BYTES || 4 * file <= journal)) return true;
    // Mid-stream, only to bound the journal (and the replay on load).
    return journal >= Math.max(JOURNAL_COMPACT_BYTES, 4 * file);
  }

  async function writeChat(chatId: string, state: ChatState): Promise<void> {
    state.scheduled = false;
    if (state.deleted) return;
    const urgent = state.urgent;
    const infoRequested = state.infoRequested;
    state.urgent = false;
    state.infoRequested = false;
    const snapshot = getChat(chatId);
    if (!snapshot && infoRequested) {
      safeLog('warn', `Chat ${chatId}: its info changed but getChat() does not return it; the change is not saved`);
    }
    if (snapshot?.messages && shouldCompact(state, urgent)) {
      await compact(state, snapshot.info, snapshot.messages);
      return;
    }
    if (!state.onDisk) {
      // A chat never written whose messages are not in memory: nothing to anchor a journal to.
      if (!state.pending.isEmpty || snapshot) {
        safeLog('warn', `Chat ${chatId} changed but its messages are not available; keeping the change in memory`);
      }
      return;
    }
    await appendJournal(state, snapshot?.info, urgent);
  }

  /**
   * Rewrites the chat file from `messages` and removes the journal. With `fromMemory` they are the
   * server's current messages, which include every pending op; otherwise (a repair while loading)
   * pending ops stay pending and the journal is left for the caller to set aside.
   */
  async function compact(state: ChatState, info: ChatInfo, messages: readonly Message[], fromMemory = true): Promise<void> {
    await ensureDirs();
    const gen = makeGeneration();
    // Serialized now, in this tick: changes recorded while the file is written are relative to
    // exactly this snapshot and go to the journal of the new generation.
    const text = encodeChatFile(info, messages, gen);
    // `info` is the server's live object: a rename during the write must not pass for written.
    const writtenInfo = JSON.stringify(info);
    const writtenInfoKey = infoKey(info);
    const taken = fromMemory ? state.pending.take() : '';
    try {
      await writeFileAtomic(state.paths.chat, text, counters);
    } catch (error) {
      state.pending.restore(taken);
      state.forceCompact = true;
      throw error;
    }
    state.onDisk = true;
    state.gen = gen;
    state.fileBytes = byteLength(text);
    state.forceCompact = false;
    state.writtenInfo = writtenInfo;
    state.writtenInfoKey = writtenInfoKey;
    if (!fromMemory) return;
    try {
      // Its lines are of the old generation now; if this unlink is lost in a crash they are ignored.
      await removeFile(state.paths.journal);
      state.journalBytes = 0;
      state.journalClean = true;
    } catch (error) {
      safeLog('warn', `Could not remove ${state.paths.journal}: ${errorText(error)}`);
    }
  }

  async function appendJournal(state: ChatState, info: ChatInfo | undefined, urgent: boolean): Promise<void> {
    let infoToWrite: ChatInfo | undefined;
    let infoJson: string | null = null;
    let key: string | null = null;
    if (info) {
      infoJson = JSON.stringify(info);
      key = infoKey(info);
      if (infoJson !== state.writtenInfo && (key !== state.writtenInfoKey || urgent)) infoToWrite = info;
    }
    if (state.pending.isEmpty && !infoToWrite) return;
    const opsJson = state.pending.take();
    let line = encodeJournalLine(state.gen, infoToWrite, opsJson || undefined);
    try {
      state.journalClean ??= [null, 0x0a].includes(await readLastByte(state.paths.journal));
      if (!state.journalClean) line = (await repairJournalTail(state.paths.journal)) + line;
      await appendDurably(state.paths.journal, line, counters);
    } catch (error) {
      state.pending.restore(opsJson);
      state.journalClean = false;
      state.forceCompact = true;
      throw error;
    }
    state.journalClean = true;
    state.journalBytes += byteLength(line);
    if (infoToWrite) {
      state.writtenInfo = infoJson;
      state.writtenInfoKey = key;
    }
  }

  /**
   * Makes a journal whose last write was cut short end on a line boundary, so the next line is
   * not glued to the fragment: drops a torn line, or returns the newline a whole line lacks.
   */
  async function repairJournalTail(filePath: string): Promise<string> {
    const content = await readBuffer(filePath);
    if (content === null) return '';
    const plan = planTailRepair(content);
    if (plan === 'newline') return '\n';
    if (plan !== null) {
      const handle = await fsp.open(filePath, 'r+');
      try {
        await handle.truncate(plan);
        await handle.sync();
      } finally {
        await handle.close();
      }
      safeLog('info', `Dropped the unfinished last line of ${filePath}`);
    }
    return '';
  }

  // ------------------------------------------------------------------ reading

  /** Reads the first line of a chat file without reading the rest. */
  async function readHeaderLine(filePath: string): Promise<{ line: string | null; size: number }> {
    const handle = await fsp.open(filePath, 'r');
    try {
      const { size } = await handle.stat();
      const chunks: Buffer[] = [];
      let position = 0;
      while (position < size && position < MAX_HEADER_BYTES) {
        const buffer = Buffer.alloc(Math.min(HEADER_CHUNK_BYTES, size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        counters.bytesRead += bytesRead;
        position += bytesRead;
        const chunk = buffer.subarray(0, bytesRead);
        const newline = chunk.indexOf(0x0a);
        if (newline >= 0) {
          chunks.push(chunk.subarray(0, newline));
          return { line: Buffer.concat(chunks).toString('utf8'), size };
        }
        chunks.push(chunk);
      }
      return { line: null, size };
    } finally {
      await handle.close();
    }
  }

  async function readBuffer(filePath: string): Promise<Buffer | null> {
    try {
      const buffer = await fsp.readFile(filePath);
      counters.bytesRead += buffer.length;
      return buffer;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async function readText(filePath: string): Promise<string | null> {
    return (await readBuffer(filePath))?.toString('utf8') ?? null;
  }

  async function setAside(filePath: string, reason: string): Promise<void> {
    try {
      const target = await moveAside(filePath);
      safeLog('warn', `Unreadable chat file ${filePath} (${reason}); moved to ${target}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      safeLog('error', `Unreadable chat file ${filePath} (${reason}); could not move it aside: ${errorText(error)}`);
    }
  }

  async function sweepTempFiles(dir: string, names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (!isTempFileName(name)) continue;
      try {
        await removeFile(path.join(dir, name));
        safeLog('info', `Removed unfinished write ${path.join(dir, name)}`);
      } catch (error) {
        safeLog('warn', `Could not remove ${path.join(dir, name)}: ${errorText(error)}`);
      }
    }
  }

  async function indexChat(chatId: string, hasJournal: boolean): Promise<ChatInfo | null> {
    const state = stateOf(chatId);
    let header;
    try {
      const { line, size } = await readHeaderLine(state.paths.chat);
      header = line === null ? ({ ok: false, reason: 'no header line' } as const) : parseHeader(line, chatId);
      state.fileBytes = size;
    } catch (error) {
      safeLog('error', `Could not read ${state.paths.chat}: ${errorText(error)}`);
      chats.delete(chatId);
      return null;
    }
    if (!header.ok) {
      chats.delete(chatId);
      if (header.newer) {
        // Not damage: a later version's file. Leave it for that version.
        safeLog('error', `Skipping ${state.paths.chat}: ${header.reason}`);
        return null;
      }
      await setAside(state.paths.chat, header.reason);
      if (hasJournal) await setAside(state.paths.journal, 'its chat file was unreadable');
      return null;
    }
    state.onDisk = true;
    state.gen = header.value.gen;
    let info = header.value.info;
    if (hasJournal) {
      try {
        const text = (await readText(state.paths.journal)) ?? '';
        state.journalBytes = byteLength(text);
        state.journalClean = text === '' || text.endsWith('\n');
        const latest = findLatestInfo(text, state.gen);
        if (latest && latest.id === chatId) info = latest;
      } catch (error) {
        safeLog('warn', `Could not read ${state.paths.journal}: ${errorText(error)}`);
      }
    } else {
      state.journalBytes = 0;
      state.journalClean = true;
    }
    state.writtenInfo = JSON.stringify(info);
    state.writtenInfoKey = infoKey(info);
    return info;
  }

  async function readMeta(): Promise<RepositoryMeta> {
    const empty: RepositoryMeta = { activeChatId: null, agentState: {} };
    let text: string | null;
    try {
      text = await readText(metaPath);
    } catch (error) {
      safeLog('error', `Could not read ${metaPath}: ${errorText(error)}`);
      return empty;
    }
    if (text === null) return empty;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = v.safeParse(MetaSchema, raw);
    if (!parsed.success) {
      try {
        const target = await moveAside(metaPath);
        safeLog('warn', `Unreadable ${metaPath}; moved to ${target}`);
      } catch (error) {
        safeLog('error', `Unreadable ${metaPath}; could not move it aside: ${errorText(error)}`);
      }
      return empty;
    }
    metaWritten = JSON.stringify(parsed.output);
    return parsed.output;
  }

  async function open(): Promise<LoadedIndex> {
    await ensureDirs();
    await sweepTempFiles(dataDir, await fsp.readdir(dataDir));
    const names = await fsp.readdir(chatsDir);
    await sweepTempFiles(chatsDir, names);
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
        const info = await indexChat(chatId, journals.has(chatId));
        if (info) infos.push(info);
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
    const meta = await readMeta();
    infos.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
    const ids = new Set(infos.map((i) => i.id));
    const activeChatId = meta.activeChatId !== null && ids.has(meta.activeChatId) ? meta.activeChatId : null;
    return { chats: infos, activeChatId, agentState: meta.agentState };
  }

  /**
   * Replays journal batches onto the file's messages. A batch that does not apply, or leaves a
   * message invalid, ends the replay: what came before it is kept.
   */
  function replay(messages: Message[], batches: readonly Op[][]): { messages: Message[]; failed: string | null } {
    let current = messages;
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b]!;
      let next: Message[];
      try {
        next = applyPatch(current, batch);
      } catch (error) {
        return { messages: current, failed: `batch ${b + 1}: ${errorText(error)}` };
      }
      if (!Array.isArray(next)) return { messages: current, failed: `batch ${b + 1}: replaced the messages` };
      // Only the messages a batch touched can have become invalid (all of them after a root op).
      const touched = new Set<number>();
      for (const op of batch) {
        const first = op.path.split('/')[1];
        if (first === undefined) next.forEach((_, i) => touched.add(i));
        else touched.add(first === '-' ? next.length - 1 : Number(first));
      }
      for (const i of touched) {
        if (!Number.isInteger(i) || i < 0 || i >= next.length) continue;
        const checked = parseMessage(next[i]);
        if (!checked.ok) return { messages: current, failed: `batch ${b + 1}: message ${i}: ${checked.reason}` };
        next[i] = checked.value;
      }
      current = next;
    }
    return { messages: current, failed: null };
  }

  async function readChat(chatId: string, state: ChatState): Promise<Message[]> {
    const text = await readText(state.paths.chat);
    if (text === null) throw new ChatNotFoundError(chatId);
    const parsed = parseChatFile(text, chatId);
    if (!parsed.ok) {
      if (parsed.newer) throw new Error(`Chat ${chatId} was written by a newer version of agentbar`);
      await setAside(state.paths.chat, parsed.reason);
      await setAside(state.paths.journal, 'its chat file was unreadable');
      chats.delete(chatId);
      state.deleted = true;
      throw new UnreadableChatError(chatId, parsed.reason);
    }
    const { header } = parsed.value;
    state.onDisk = true;
    state.gen = header.gen;
    state.fileBytes = byteLength(text);
    let messages = parsed.value.messages;
    const journalText = await readText(state.paths.journal);
    if (journalText !== null) {
      state.journalBytes = byteLength(journalText);
      state.journalClean = journalText === '' || journalText.endsWith('\n');
      const journal = parseJournal(journalText, header.gen);
      const replayed = replay(messages, journal.batches);
      messages = replayed.messages;
      if (journal.tornTail) safeLog('info', `Ignored the unfinished last line of ${state.paths.journal}`);
      if (journal.damaged > 0 || replayed.failed) {
        const why = replayed.failed ?? `${journal.damaged} damaged line(s)`;
        // Keep what replayed in a new chat file, then keep the journal aside for a human.
        const info = journal.info && journal.info.id === chatId ? journal.info : header.info;
        await compact(state, info, messages, false);
        await setAside(state.paths.journal, `journal ${why}`);
        state.journalBytes = 0;
        state.journalClean = true;
      }
    }
    recoverInterrupted(messages);
    return messages;
  }

  // ------------------------------------------------------------------ the interface

  function assertOpen(what: string, chatId?: string): boolean {
    if (!closed) return true;
    safeLog('warn', `${what}${chatId ? ` of chat ${chatId}` : ''} after close was ignored`);
    return false;
  }

  function recordChange(chatId: string, ops: Op[], recordOptions?: { urgent?: boolean }): void {
    const state = stateOf(chatId); // throws for an invalid id, before anything else
    if (!assertOpen('A change', chatId)) return;
    if (state.deleted) return;
    try {
      state.pending.record(ops);
    } catch (error) {
      // Unserializable values: the journal cannot carry them, a rewrite from memory may.
      state.forceCompact = true;
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

  function recordInfo(chatId: string): void {
    const state = stateOf(chatId);
    if (!assertOpen('An info change', chatId)) return;
    if (state.deleted) return;
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
      if (!state.onDisk && state.pending.isEmpty && !state.queue.busy && chats.get(chatId) === state) chats.delete(chatId);
    }
  }

  async function deleteChat(chatId: string): Promise<void> {
    const state = stateOf(chatId);
    state.deleted = true;
    state.pending.clear();
    dirty.delete(chatId);
    try {
      await state.queue.run(async () => {
        const removedChat = await removeFile(state.paths.chat);
        // Chat file first: a crash now leaves an orphan journal, which open() removes.
        if (removedChat) await fsyncDir(chatsDir);
        if (await removeFile(state.paths.journal)) await fsyncDir(chatsDir);
      });
    } finally {
      if (chats.get(chatId) === state) chats.delete(chatId);
    }
  }

  function setMeta(meta: RepositoryMeta): void {
    if (!assertOpen('A meta change')) return;
    try {
      const activeChatId = meta.activeChatId !== null && isValidId(meta.activeChatId) ? meta.activeChatId : null;
      metaJson = JSON.stringify({ activeChatId, agentState: meta.agentState ?? {} });
    } catch (error) {
      safeLog('error', `Could not record the meta: ${errorText(error)}`);
      return;
    }
    startMetaWrite();
  }

  function startMetaWrite(): void {
    if (metaScheduled || metaJson === null) return;
    metaScheduled = true;
    metaQueue
      .run(async () => {
        metaScheduled = false;
        const json = metaJson;
        if (json === null || json === metaWritten) return;
        await ensureDirs();
        await writeFileAtomic(metaPath, json + '\n', counters);
        metaWritten = json;
      })
      .catch((error: unknown) => {
        safeLog('error', `Could not save ${metaPath}: ${errorText(error)}`);
      });
  }

  async function flush(): Promise<void> {
    startMetaWrite();
    for (const chatId of [...dirty]) startWrite(chatId);
    await Promise.all([metaQueue.idle(), ...[...chats.values()].map((s) => s.queue.idle())]);
  }

  async function compactForClose(): Promise<void> {
    const tasks: Promise<void>[] = [];
    for (const [chatId, state] of chats) {
      if (state.deleted || !state.onDisk || state.journalBytes === 0) continue;
      if (state.fileBytes + state.journalBytes > CLOSE_COMPACT_BYTES && state.journalBytes * 4 < state.fileBytes) continue;
      tasks.push(
        state.queue
          .run(async () => {
            const snapshot = getChat(chatId);
            if (snapshot?.messages && !state.deleted) await compact(state, snapshot.info, snapshot.messages);
          })
          .catch((error: unknown) => safeLog('error', `Could not compact chat ${chatId}: ${errorText(error)}`)),
      );
    }
    await Promise.all(tasks);
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      await flush();
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await compactForClose();
      await flush();
    })();
    return closing;
  }

  return {
    open,
    loadMessages,
    recordChange,
    recordInfo,
    deleteChat,
    setMeta,
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
