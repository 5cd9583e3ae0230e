/**
 * File primitives whose every intermediate state survives a kill -9 or a power cut: a file is
 * either its old or its new version, never a mix (write temp, fsync, rename, fsync the folder).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Bytes moved by the repository, for benches and tests. */
export interface IoCounters {
  bytesWritten: number;
  bytesRead: number;
}

const TEMP_PATTERN = /\.tmp-\d+-[A-Za-z0-9]+$/;

/** True for the temp files `writeFileAtomic` leaves behind when killed mid-write. */
export function isTempFileName(name: string): boolean {
  return TEMP_PATTERN.test(name);
}

function makeTempPath(filePath: string): string {
  return `${filePath}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * Makes a folder's entries (a rename, a new file) durable. Some platforms cannot open a folder for
 * fsync (Windows) or refuse it (EISDIR, EINVAL on some file systems); there is nothing more to do then.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `filePath` with `data` atomically: readers (and a restart after a crash) see the old
 * content or the new one. The temp file sits in the same folder so the rename never crosses devices.
 *
 * @example await writeFileAtomic('/data/meta.json', '{"activeChatId":null}\n', counters);
 */
export async function writeFileAtomic(filePath: string, data: string, counters?: IoCounters): Promise<void> {
  const temp = makeTempPath(filePath);
  const buffer = Buffer.from(data, 'utf8');
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', 0o600);
    await handle.writeFile(buffer);
    if (counters) counters.bytesWritten += buffer.length;
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fsp.rename(temp, filePath);
  } catch (error) {
    await handle?.close().catch(() => {});
    await fsp.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  try {
    await fsyncDir(path.dirname(filePath));
  } catch (error) {
    // The new content is in place; only its durability is in doubt. Callers must know which.
    throw Object.assign(error as Error, { replaced: true });
  }
}

/** True for an error of `writeFileAtomic` thrown after the file was replaced. */
export function isReplacedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { replaced?: unknown }).replaced === true;
}

/**
 * Cuts a file back to `length` bytes (what is known to be whole), dropping what a failed append
 * may have left. Never grows a file; resolves with its size afterwards (0 when missing).
 */
export async function truncateFile(filePath: string, length: number): Promise<number> {
  const size = await fileSize(filePath);
  if (size <= length) return size;
  await fsp.truncate(filePath, length);
  return length;
}

/**
 * Appends `data` to a file and fsyncs it; creates the file (and makes its name durable) when needed.
 */
export async function appendDurably(filePath: string, data: string, counters?: IoCounters): Promise<void> {
  const buffer = Buffer.from(data, 'utf8');
  let created = false;
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(filePath, 'wx', 0o600);
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    handle = await fsp.open(filePath, 'a');
  }
  try {
    await handle.appendFile(buffer);
    if (counters) counters.bytesWritten += buffer.length;
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await fsyncDir(path.dirname(filePath));
}

/** The last byte of a file, or null when it is empty or missing. */
export async function readLastByte(filePath: string): Promise<number | null> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(filePath, 'r');
    const { size } = await handle.stat();
    if (size === 0) return null;
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, size - 1);
    return buffer[0] ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Renames an unreadable file to `<name>.corrupt-<timestamp>` beside it (never deletes it) and
 * returns the new path.
 */
export async function moveAside(filePath: string, now: number = Date.now()): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const target = `${filePath}.corrupt-${now}${attempt ? `-${attempt}` : ''}`;
    try {
      // rename would silently replace an earlier corrupt copy of the same millisecond.
      await fsp.access(target);
    } catch {
      await fsp.rename(filePath, target);
      await fsyncDir(path.dirname(filePath));
      return target;
    }
    if (attempt > 100) throw new Error(`Cannot find a free name to move ${filePath} aside`);
  }
}

/** Removes a file; a missing file is fine. Returns whether it existed. */
export async function removeFile(filePath: string): Promise<boolean> {
  try {
    await fsp.unlink(filePath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A file's size in bytes, 0 when it does not exist. */
export async function fileSize(filePath: string): Promise<number> {
  try {
    return (await fsp.stat(filePath)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}
