/**
 * One server per data folder, race-free: `DATA_DIR/server.lock` holds the owner's pid and is
 * created atomically with its content (written to a temp file, then hard-linked into place, which
 * fails if the lock exists), so of two servers started at the same moment exactly one gets it. A
 * lock left by a crashed process (its pid is gone) is taken over, by one starter at a time (see
 * the takeover claim below); a live one is refused.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, readFile, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** A takeover claim this old was left by a starter that died in it (a takeover takes two file operations). */
const LEFT_CLAIM_MS = 5_000;

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
    for (let attempt = 0; attempt < 50; attempt++) {
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
      // Stale (its process is gone, or the file is unreadable). Claim the takeover of this very
      // file with an exclusive hard link named after its holder: of the starters that saw it stale,
      // one wins the claim, and while the claim exists nobody else can remove or replace the lock
      // (a starter's own link fails while it exists), so the lock removed is the one checked.
      // Moving the lock aside instead lost a fresh lock to a starter that read it stale a moment
      // before: two servers then held the folder.
      const claim = `${file}.takeover-${holder ?? 'unreadable'}`;
      try {
        await link(file, claim);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        if (code !== 'EEXIST') throw error;
        // Another starter is taking it over: in a moment the lock is free, or theirs. A claim
        // older than a takeover could take was left by a starter that died in it.
        const since = await lstat(claim).then((st) => Date.now() - st.ctimeMs, () => 0);
        if (since > LEFT_CLAIM_MS) await unlink(claim).catch(() => {});
        await sleep(10 + Math.random() * 20);
        continue;
      }
      try {
        // The claim is the file as it was when linked: the stale lock, or (read stale just before
        // another starter replaced it) a fresh one, which stays.
        if ((await readPid(claim)) === holder) await unlink(file).catch(() => {});
      } finally {
        await unlink(claim).catch(() => {});
      }
    }
    throw new Error(`Could not lock ${dataDir}: its lock file kept changing`);
  } finally {
    await unlink(mine).catch(() => {});
  }
}
