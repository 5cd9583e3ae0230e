/**
 * One server per data folder, race-free: `DATA_DIR/server.lock` holds the owner's pid and is
 * created atomically with its content (written to a temp file, then hard-linked into place, which
 * fails if the lock exists), so of two servers started at the same moment exactly one gets it. A
 * lock left by a crashed process (its pid is gone) is taken over; a live one is refused.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** Thrown when another live process holds the folder. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Another agentbar server (pid ${pid}) is using ${dataDir}; stop it or pass another --data-dir`);
    this.name = 'DataDirBusyError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readPid(file: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * @example const lock = await lockDataDir(dataDir); … await lock.release();
 * @throws DataDirBusyError while another live process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, 'server.lock');
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(mine, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(mine, file);
        let released = false;
        return {
          file,
          async release() {
            if (released) return;
            released = true;
            if ((await readPid(file)) === process.pid) await unlink(file).catch(() => {});
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readPid(file);
      if (holder !== null && holder !== process.pid && isAlive(holder)) throw new DataDirBusyError(dataDir, holder);
      // Stale (its process is gone, or the file is unreadable): move it aside atomically. If what
      // we moved turns out to be a fresh lock another starter just made, put it back and yield.
      const aside = `${file}.stale.${randomBytes(4).toString('hex')}`;
      try {
        await rename(file, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = await readPid(aside);
      if (moved !== holder && moved !== null && isAlive(moved)) {
        await link(aside, file).catch(() => {});
        await unlink(aside).catch(() => {});
        throw new DataDirBusyError(dataDir, moved);
      }
      await unlink(aside).catch(() => {});
    }
    throw new Error(`Could not lock ${dataDir}: its lock file kept changing`);
  } finally {
    await unlink(mine).catch(() => {});
  }
}
