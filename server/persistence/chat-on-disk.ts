/**
 * One chat's two files and what this process knows of them: `chats/<id>.jsonl` (rewritten whole,
 * atomically, by `compact`) and `chats/<id>.journal` (appended to by `appendJournal`), their
 * generation and sizes, and the info last written. Reading back (`readIndex`, `read`) replays the
 * journal and sets damaged files aside. When to write which is the repository's business.
 */
import type { ChatInfo, Message } from '../../shared/schemas.ts';
import type { OpBuffer } from '../sync/op-buffer.ts';
import { appendDurably, fileSize, fsyncDir, isReplacedError, readLastByte, removeFile, truncateFile, writeFileAtomic, type IoCounters } from './atomic-file.ts';
import { encodeChatFile, makeGeneration, parseChatFile, parseHeader } from './chat-file-format.ts';
import { readHeaderLine, readText, repairJournalTail, setAside } from './chat-files.ts';
import { resolveChatPaths, type ChatPaths } from './chat-paths.ts';
import { ChatNotFoundError, UnreadableChatError, type LogFn } from './chat-repository.ts';
import type { ChatFileSizes } from './compaction-policy.ts';
import { encodeJournalLine, findLatestInfo, parseJournal } from './journal.ts';
import { replayJournal } from './journal-replay.ts';
import { recoverInterrupted } from './recover-messages.ts';

export interface DiskContext {
  chatsDir: string;
  counters: IoCounters;
  log: LogFn;
  /** Creates the chats folder before the first write. */
  ensureDirs: () => Promise<void>;
}

export class ChatOnDisk {
  readonly paths: ChatPaths;
  /** The chat file exists (as far as this process knows). */
  onDisk = false;
  /** The chat file's generation: journal lines of another one are stale. */
  gen = '';
  fileBytes = 0;
  /** Size of the journal file, stale lines included. */
  journalBytes = 0;
  /** The journal ends with a newline; null until checked. */
  journalClean: boolean | null = null;
  /**
   * An append failed part-way: the journal is cut back to `journalBytes` (every line whole)
   * before the next one, which needs no free space.
   */
  private journalNeedsCut = false;
  /** Ops could not be serialized for the journal: only a rewrite from memory can save them. */
  forceCompact = false;
  /** The info as last written (header or journal), to write it again only when it changed. */
  private writtenInfo: string | null = null;
  private writtenInfoKey: string | null = null;

  /** Throws `InvalidChatIdError` for an id that could leave the chats folder. */
  constructor(
    readonly chatId: string,
    private readonly ctx: DiskContext,
  ) {
    this.paths = resolveChatPaths(ctx.chatsDir, chatId);
  }

  /** The sizes the compaction policy decides on, counting `pendingBytes` about to be journaled. */
  sizes(pendingBytes: number): ChatFileSizes {
    return { onDisk: this.onDisk, forceCompact: this.forceCompact, fileBytes: this.fileBytes, journalBytes: this.journalBytes + pendingBytes };
  }

  /**
   * Rewrites the chat file from `messages` and removes the journal. With `pending` they are the
   * server's current messages, which include every pending op (taken here, put back if the write
   * fails); without (a repair while loading) the journal is left for the caller to set aside.
   *
   * @example await disk.compact(info, messages, pending);
   */
  async compact(info: ChatInfo, messages: readonly Message[], pending: OpBuffer | null): Promise<void> {
    await this.ctx.ensureDirs();
    const gen = makeGeneration();
    // Serialized now, in this tick: changes recorded while the file is written are relative to
    // exactly this snapshot and go to the journal of the new generation.
    const text = encodeChatFile(info, messages, gen);
    // `info` is the server's live object: a rename during the write must not pass for written.
    const writtenInfo = JSON.stringify(info);
    const writtenInfoKey = infoKey(info);
    const taken = pending ? pending.take() : '';
    let failure: unknown = null;
    try {
      await writeFileAtomic(this.paths.chat, text, this.ctx.counters);
    } catch (error) {
      // Before the rename the old file and journal are intact, and the ops pending again fit
      // them: the repository may append them instead.
      if (!isReplacedError(error)) {
        pending?.restore(taken);
        throw error;
      }
      failure = error;
    }
    this.onDisk = true;
    this.gen = gen;
    this.fileBytes = byteLength(text);
    this.forceCompact = false;
    this.writtenInfo = writtenInfo;
    this.writtenInfoKey = writtenInfoKey;
    if (failure) throw failure;
    if (!pending) return;
    try {
      // Its lines are of the old generation now; if this unlink is lost in a crash they are ignored.
      await removeFile(this.paths.journal);
      this.journalBytes = 0;
      this.journalClean = true;
    } catch (error) {
      this.ctx.log('warn', `Could not remove ${this.paths.journal}: ${describe(error)}`);
    }
  }

  /**
   * Appends the pending ops, and the info when it changed (mid-stream, a change of `updatedAt`
   * alone waits for an `urgent` write), as one journal line. Needs the chat file on disk.
   *
   * @example await disk.appendJournal(info, pending, false);
   */
  async appendJournal(info: ChatInfo | undefined, pending: OpBuffer, urgent: boolean): Promise<void> {
    let infoToWrite: ChatInfo | undefined;
    let infoJson: string | null = null;
    let key: string | null = null;
    if (info) {
      infoJson = JSON.stringify(info);
      key = infoKey(info);
      if (infoJson !== this.writtenInfo && (key !== this.writtenInfoKey || urgent)) infoToWrite = info;
    }
    if (pending.isEmpty && !infoToWrite) return;
    const opsJson = pending.take();
    let line = encodeJournalLine(this.gen, infoToWrite, opsJson || undefined);
    try {
      if (this.journalNeedsCut) {
        this.journalBytes = await truncateFile(this.paths.journal, this.journalBytes);
        this.journalNeedsCut = false;
        this.journalClean = null;
      }
      this.journalClean ??= [null, 0x0a].includes(await readLastByte(this.paths.journal));
      if (!this.journalClean) {
        line = (await repairJournalTail(this.paths.journal, this.ctx.counters, this.ctx.log)) + line;
        // The repair may have cut the file: count from what is there.
        this.journalBytes = await fileSize(this.paths.journal);
      }
      await appendDurably(this.paths.journal, line, this.ctx.counters);
    } catch (error) {
      pending.restore(opsJson);
      this.journalNeedsCut = true;
      throw error;
    }
    this.journalClean = true;
    this.journalBytes += byteLength(line);
    if (infoToWrite) {
      this.writtenInfo = infoJson;
      this.writtenInfoKey = key;
    }
  }

  /**
   * Reads the header line and the journal's latest info, for the index at start. Null when the
   * chat cannot be listed: unreadable (set aside), or written by a newer version (left alone).
   *
   * @example const info = await disk.readIndex(journals.has(chatId));
   */
  async readIndex(hasJournal: boolean): Promise<ChatInfo | null> {
    const { chatId, paths, ctx } = this;
    let header;
    try {
      const { line, size } = await readHeaderLine(paths.chat, ctx.counters);
      header = line === null ? ({ ok: false, reason: 'no header line' } as const) : parseHeader(line, chatId);
      this.fileBytes = size;
    } catch (error) {
      ctx.log('error', `Could not read ${paths.chat}: ${describe(error)}`);
      return null;
    }
    if (!header.ok) {
      if (header.newer) {
        // Not damage: a later version's file. Leave it for that version.
        ctx.log('error', `Skipping ${paths.chat}: ${header.reason}`);
        return null;
      }
      await setAside(paths.chat, header.reason, ctx.log);
      if (hasJournal) await setAside(paths.journal, 'its chat file was unreadable', ctx.log);
      return null;
    }
    this.onDisk = true;
    this.gen = header.value.gen;
    let info = header.value.info;
    if (hasJournal) {
      try {
        const text = (await readText(paths.journal, ctx.counters)) ?? '';
        this.journalBytes = byteLength(text);
        this.journalClean = text === '' || text.endsWith('\n');
        const latest = findLatestInfo(text, this.gen);
        if (latest && latest.id === chatId) info = latest;
      } catch (error) {
        ctx.log('warn', `Could not read ${paths.journal}: ${describe(error)}`);
      }
    } else {
      this.journalBytes = 0;
      this.journalClean = true;
    }
    this.writtenInfo = JSON.stringify(info);
    this.writtenInfoKey = infoKey(info);
    return info;
  }

  /**
   * Reads the messages: the chat file, the journal replayed onto it, crash recovery applied. A
   * damaged journal is folded into a new chat file up to the damage and set aside. Throws
   * `ChatNotFoundError`, or `UnreadableChatError` after setting an unreadable file aside.
   *
   * @example const messages = await disk.read();
   */
  async read(): Promise<Message[]> {
    const { chatId, paths, ctx } = this;
    const text = await readText(paths.chat, ctx.counters);
    if (text === null) throw new ChatNotFoundError(chatId);
    const parsed = parseChatFile(text, chatId);
    if (!parsed.ok) {
      if (parsed.newer) throw new Error(`Chat ${chatId} was written by a newer version of agentbar`);
      await setAside(paths.chat, parsed.reason, ctx.log);
      await setAside(paths.journal, 'its chat file was unreadable', ctx.log);
      throw new UnreadableChatError(chatId, parsed.reason);
    }
    const { header } = parsed.value;
    this.onDisk = true;
    this.gen = header.gen;
    this.fileBytes = byteLength(text);
    let messages = parsed.value.messages;
    const journalText = await readText(paths.journal, ctx.counters);
    if (journalText !== null) {
      this.journalBytes = byteLength(journalText);
      this.journalClean = journalText === '' || journalText.endsWith('\n');
      const journal = parseJournal(journalText, header.gen);
      const replayed = replayJournal(messages, journal.batches);
      messages = replayed.messages;
      if (journal.tornTail) ctx.log('info', `Ignored the unfinished last line of ${paths.journal}`);
      if (journal.damaged > 0 || replayed.failed) {
        const why = replayed.failed ?? `${journal.damaged} damaged line(s)`;
        // Keep what replayed in a new chat file, then keep the journal aside for a human.
        const info = journal.info && journal.info.id === chatId ? journal.info : header.info;
        await this.compact(info, messages, null);
        await setAside(paths.journal, `journal ${why}`, ctx.log);
        this.journalBytes = 0;
        this.journalClean = true;
      }
    }
    recoverInterrupted(messages);
    return messages;
  }

  /**
   * Removes both files, the chat file first: a crash in between leaves an orphan journal, which
   * the next start removes. Throws, changing nothing, when the chat file cannot be removed.
   *
   * @example await disk.remove();
   */
  async remove(): Promise<void> {
    const removedChat = await removeFile(this.paths.chat);
    if (removedChat) await fsyncDir(this.ctx.chatsDir);
    try {
      if (await removeFile(this.paths.journal)) await fsyncDir(this.ctx.chatsDir);
    } catch (error) {
      // The chat is gone already: the next start removes a journal without its chat file.
      this.ctx.log('warn', `Could not remove ${this.paths.journal}: ${describe(error)}`);
    }
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The info without `updatedAt`: a change of the time alone is not worth a journal entry mid-stream. */
function infoKey(info: ChatInfo): string {
  const { updatedAt: _ignored, ...rest } = info;
  return JSON.stringify(rest);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
