/**
 * Reading and tidying the files of the chats folder: the header line alone, whole files with
 * their bytes counted, moving damaged files aside, sweeping unfinished writes, and making a
 * journal end on a line boundary before appending to it.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isTempFileName, moveAside, removeFile, type IoCounters } from './atomic-file.ts';
import type { LogFn } from './chat-repository.ts';
import { planTailRepair } from './journal.ts';

/** A header longer than this is damage, not a chat. */
const MAX_HEADER_BYTES = 256 * 1024;
const HEADER_CHUNK_BYTES = 1024;

/**
 * Reads the first line of a chat file without reading the rest (null: no newline in the first
 * 256 KiB), and the file's size.
 *
 * @example const { line, size } = await readHeaderLine('/data/chats/chat_1.jsonl', counters);
 */
export async function readHeaderLine(filePath: string, counters: IoCounters): Promise<{ line: string | null; size: number }> {
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

/**
 * A whole file, or null when it does not exist.
 *
 * @example const buffer = await readBuffer(journalPath, counters);
 */
export async function readBuffer(filePath: string, counters: IoCounters): Promise<Buffer | null> {
  try {
    const buffer = await fsp.readFile(filePath);
    counters.bytesRead += buffer.length;
    return buffer;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A whole file as UTF-8, or null when it does not exist.
 *
 * @example const text = (await readText(metaPath, counters)) ?? '{}';
 */
export async function readText(filePath: string, counters: IoCounters): Promise<string | null> {
  return (await readBuffer(filePath, counters))?.toString('utf8') ?? null;
}

/**
 * Moves an unreadable file aside for a human (never deletes it) and says where it went.
 *
 * @example await setAside(paths.chat, 'no header line', log);
 */
export async function setAside(filePath: string, reason: string, log: LogFn): Promise<void> {
  try {
    const target = await moveAside(filePath);
    log('warn', `Unreadable chat file ${filePath} (${reason}); moved to ${target}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    log('error', `Unreadable chat file ${filePath} (${reason}); could not move it aside: ${describe(error)}`);
  }
}

/**
 * Removes the temp files of writes a crash cut short, among `names` in `dir`.
 *
 * @example await sweepTempFiles(chatsDir, await fsp.readdir(chatsDir), log);
 */
export async function sweepTempFiles(dir: string, names: readonly string[], log: LogFn): Promise<void> {
  for (const name of names) {
    if (!isTempFileName(name)) continue;
    try {
      await removeFile(path.join(dir, name));
      log('info', `Removed unfinished write ${path.join(dir, name)}`);
    } catch (error) {
      log('warn', `Could not remove ${path.join(dir, name)}: ${describe(error)}`);
    }
  }
}

/**
 * Makes a journal whose last write was cut short end on a line boundary, so the next line is not
 * glued to the fragment: drops a torn line, or returns the newline a whole line lacks (to put in
 * front of the next line).
 *
 * @example line = (await repairJournalTail(paths.journal, counters, log)) + line;
 */
export async function repairJournalTail(filePath: string, counters: IoCounters, log: LogFn): Promise<string> {
  const content = await readBuffer(filePath, counters);
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
    log('info', `Dropped the unfinished last line of ${filePath}`);
  }
  return '';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
