/**
 * One server per data folder, race-free: `DATA_DIR/server.lock` holds the owner's pid and is
 * created atomically with its content (written to a temp file, then hard-linked into place, which
 * fails if the lock exists), so of two servers started at the same moment exactly one gets it.
 *
 * A lock whose holder is not a running server is taken over, by one starter at a time (see the
 * takeover claim below). The holder is not running when its pid is gone, is a zombie (killed, not
 * yet reaped: for ever in a container whose init never reaps), or belongs to a process started
 * after the lock was written (the pid was reused after a restart). A holder that is running but
 * not serving (starting, or saving its chats on the way out) is waited for a few seconds.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { tryReadConnectionFile } from './connection-file.ts';
import { describeProcess } from './process-state.ts';

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a holder that runs but does not serve (starting or stopping). Default 5 s. */
  waitForHolderMs?: number;
  /** A takeover claim this old was left by a starter that died in it. Default 5 s. */
  leftClaimMs?: number;
}

/**
 * The refusal, with what to do: stop the other server, or delete the lock if that pid is no
 * agentbar server (a lock copied from another machine, say).
 *
 * @example describeBusyFolder('/home/me/.agentbar', 4242, 'http://127.0.0.1:4477')
 */
export function describeBusyFolder(dataDir: string, pid: number, http?: string): string {
  const lockFile = path.join(dataDir, 'server.lock');
  return (
    `Another agentbar server (pid ${pid}${http ? `, ${http}` : ''}) is using ${dataDir}. Stop it, or pass another --data-dir. ` +
    `If no agentbar server runs there (\`ps -p ${pid}\` shows another program, or nothing), delete ${lockFile} and start again.`
  );
}

/** Thrown when another running process holds the folder. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(describeBusyFolder(dataDir, pid));
    this.name = 'DataDirBusyError';
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

/** Whether `pid`, named in `file`, is a process that can hold it: alive, not a zombie, not a newer process with a reused pid. */
async function holdsLock(pid: number, file: string): Promise<boolean> {
  const written = await stat(file).then((s) => s.mtimeMs, () => null);
  const state = describeProcess(pid);
  if (state.kind !== 'running') return false;
  // A process started after the lock was written cannot have written it. The start time is read
  // from /proc with a second's resolution: the slack keeps a true holder that wrote at once.
  if (written !== null && state.startedAt !== undefined && state.startedAt > written + 2_000) return false;
  return true;
}

/** Whether the holder answers as the server its connection file names: then it is not about to go. */
async function isServing(dataDir: string, pid: number): Promise<boolean> {
  const info = await tryReadConnectionFile(dataDir);
  if (!info || info.pid !== pid) return false;
  try {
    const res = await fetch(`${info.http}/health`, { signal: AbortSignal.timeout(1_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * @example const lock = await lockDataDir(dataDir); … await lock.release();
 * @throws DataDirBusyError while another running process holds it.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const file = path.join(dataDir, 'server.lock');
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const waitUntil = Date.now() + (options.waitForHolderMs ?? 5_000);
  const leftClaimMs = options.leftClaimMs ?? 5_000;
  await writeFile(mine, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
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
      if (holder !== null && holder !== process.pid && (await holdsLock(holder, file))) {
        // A server that serves is refused at once; one starting or saving its chats on the way
        // out (a restart right after a Ctrl+C) is given a moment to finish.
        if (Date.now() >= waitUntil || (await isServing(dataDir, holder))) throw new DataDirBusyError(dataDir, holder);
        await sleep(50);
        continue;
      }
      if (attempt > 200) throw new Error(`Could not lock ${dataDir}: its lock file kept changing`);
      // Stale. Claim the takeover of this very file with an exclusive hard link named after its
      // holder: of the starters that saw it stale, one wins the claim, and while the claim exists
      // nobody else can remove or replace the lock (a starter's own link fails while it exists),
      // so the lock removed is the one checked.
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
        if (since > leftClaimMs) await unlink(claim).catch(() => {});
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
  } finally {
    await unlink(mine).catch(() => {});
  }
}
