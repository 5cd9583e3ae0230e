/**
 * Opens a file for an ACP agent so that the file checked is the file used: the path is resolved
 * and checked, then opened without following a link at its end (on Linux, at any step), and the open file itself is
 * checked again (a regular file, one link, really inside the folder). Checking the path alone
 * lets a symlink swapped in between the check and the use lead anywhere.
 */
import { constants, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** On Linux an open file's real path can be read back, and a path relative to an open folder opened through it (as openat does). */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : null;
/** A FIFO opened with O_NONBLOCK answers at once instead of holding a libuv thread until someone reads it. */
const BASE_FLAGS = constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** A refusal the agent is told about; `code` ENOENT becomes ACP's "resource not found". */
function refusal(message: string, code?: string): Error & { code?: string } {
  return Object.assign(new Error(message), code ? { code } : {});
}

/**
 * Whether `real` is `realRoot` or inside it, judged by path segments (so `..hidden` is inside).
 *
 * @example isInside('/repo', '/repo/..hidden') // true
 */
export function isInside(realRoot: string, real: string): boolean {
  const relative = path.relative(realRoot, real);
  return relative === '' || (!path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..');
}

/** The `code` of a failed system call (ENOENT, ELOOP…), if it has one. */
function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** What a file that is not a regular file is, in words. */
function describeKind(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notRegular(given: string, info: Stats): Error {
  return refusal(`${given} is ${describeKind(info)}; agentbar lets the agent read and write regular files only`);
}

function swapped(given: string): Error {
  return refusal(`${given} changed while agentbar opened it (a file or folder on its path was replaced, by a link perhaps); try again`);
}

/** Resolves `given` (symlinks followed as far as the path exists) and checks that it stays inside `root`. */
async function resolveInside(root: string, given: string): Promise<{ realRoot: string; real: string }> {
  if (!path.isAbsolute(given)) throw refusal(`Paths must be absolute: ${given}`);
  const realRoot = await realpath(root);
  // The deepest part of the path that exists decides where it really points.
  let existing = path.resolve(given);
  const rest: string[] = [];
  for (;;) {
    try {
      existing = await realpath(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) throw refusal(`No such path: ${given}`, 'ENOENT');
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const real = path.join(existing, ...rest);
  if (!isInside(realRoot, real)) throw refusal(`${given} is outside the working folder ${root}; agentbar only lets the agent reach files inside it`);
  if (real === realRoot) throw refusal(`${given} is the working folder itself, not a file`);
  return { realRoot, real };
}

/**
 * Opens `real` one segment at a time from the open root folder, never following a link (Linux):
 * a folder swapped for a link on the way fails the open instead of leading outside. Missing
 * folders are made for writes, each inside the folder just opened.
 */
async function openByWalk(realRoot: string, real: string, flags: number, makeFolders: boolean): Promise<FileHandle> {
  const segments = path.relative(realRoot, real).split(path.sep);
  const name = segments.pop()!;
  let folder = await open(realRoot, DIRECTORY_FLAGS);
  try {
    for (const segment of segments) {
      const next = `${PROC_FD}/${folder.fd}/${segment}`;
      const opened = await open(next, DIRECTORY_FLAGS).catch(async (error: unknown) => {
        if (codeOf(error) !== 'ENOENT' || !makeFolders) throw error;
        await mkdir(next).catch((e: unknown) => {
          if (codeOf(e) !== 'EEXIST') throw e;
        });
        return open(next, DIRECTORY_FLAGS);
      });
      await folder.close();
      folder = opened;
    }
    return await open(`${PROC_FD}/${folder.fd}/${name}`, flags, 0o666);
  } finally {
    await folder.close();
  }
}

/** Where the open file really is: the kernel's name for it on Linux, else the path resolved again. */
async function locateOpened(handle: FileHandle, real: string): Promise<string> {
  if (PROC_FD) return readlink(`${PROC_FD}/${handle.fd}`);
  return realpath(real);
}

/**
 * Whether `real` still resolves to `where` (elsewhere than Linux): a link swapped in and out
 * around the identity check must also be in place for both resolutions. This narrows the race
 * that checking by path leaves; only Linux closes it.
 */
async function stillResolves(real: string, where: string): Promise<boolean> {
  return PROC_FD !== null || (await realpath(real).catch(() => '')) === where;
}

/** Checks the open file itself: a regular file with one link, inside the folder, and the file its real path names. */
async function checkOpened(handle: FileHandle, realRoot: string, real: string, given: string): Promise<Stats> {
  const info = await handle.stat();
  if (!info.isFile()) throw notRegular(given, info);
  // No link left: the file was replaced after it was opened.
  if (info.nlink === 0) throw swapped(given);
  // Another name for the same file may be outside the folder, and nothing tells where it is.
  if (info.nlink !== 1) throw refusal(`${given} has ${info.nlink} hard links, so the same file may be reachable from outside the working folder; agentbar does not let the agent read or write a hard-linked file (a copy of it, made with cp, has one link)`);
  const where = await locateOpened(handle, real).catch(() => '');
  if (!path.isAbsolute(where)) throw swapped(given);
  if (!isInside(realRoot, where)) throw refusal(`${given} leads outside the working folder (to ${where}); agentbar only lets the agent reach files inside it`);
  const named = await stat(where).catch(() => null);
  if (!named || named.dev !== info.dev || named.ino !== info.ino || !(await stillResolves(real, where))) throw swapped(given);
  return info;
}

/** Turns the errors of opening into refusals the agent can act on. */
function describeOpenError(error: unknown, given: string): unknown {
  const code = codeOf(error);
  if (code === 'ENOENT') return refusal(`No such file: ${given}`, 'ENOENT');
  if (code === 'ELOOP') return swapped(given);
  // A link in place of a folder fails as a file in place of a folder does (EEXIST: making folders over a file).
  if (code === 'ENOTDIR' || code === 'EEXIST') return refusal(`${given} cannot be opened: a part of its path is not a folder, or was replaced by a link while agentbar opened it`);
  if (code === 'EISDIR') return refusal(`${given} is a folder; agentbar lets the agent read and write regular files only`);
  // Opening a FIFO nobody reads, or a socket, for writing without blocking.
  if (code === 'ENXIO') return refusal(`${given} is not a regular file (a FIFO or a socket); agentbar lets the agent read and write regular files only`);
  return error;
}

/**
 * Opens a regular file inside `root` for reading, or for writing (made, with its folders, when
 * missing; never truncated here). Refuses paths outside `root` (through `..`, a symlink, or a link
 * swapped in while opening), FIFOs, sockets, devices and hard-linked files.
 *
 * @example const { handle, info } = await openInside('/repo', '/repo/src/app.ts', 'read');
 */
export async function openInside(root: string, given: string, mode: 'read' | 'write'): Promise<{ handle: FileHandle; info: Stats }> {
  const { realRoot, real } = await resolveInside(root, given);
  if (mode === 'write') {
    const existing = await lstat(real).catch(() => null);
    if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw notRegular(given, existing);
  }
  // No O_TRUNC: the file is emptied after its checks, so they judge the very file written (a temp file renamed into place would be placed by path, after them).
  const flags = BASE_FLAGS | (mode === 'read' ? constants.O_RDONLY : constants.O_WRONLY | constants.O_CREAT);
  let handle: FileHandle;
  try {
    if (PROC_FD) handle = await openByWalk(realRoot, real, flags, mode === 'write');
    else {
      if (mode === 'write') await mkdir(path.dirname(real), { recursive: true });
      handle = await open(real, flags, 0o666);
    }
  } catch (error) {
    throw describeOpenError(error, given);
  }
  try {
    return { handle, info: await checkOpened(handle, realRoot, real, given) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
