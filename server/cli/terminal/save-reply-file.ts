/**
 * The files of a reply on the command line (images too: an agent sends them as files): one line
 * that says what each is and, with `agentbar chat --save-files DIR` or `/save`, the file itself
 * written to DIR under its own name, never over a file already there (`orders-1.csv`, …).
 */
import { mkdir, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataUrlBytes, splitDataUrl } from '../../../shared/data-url.ts';
import { formatBytes } from '../../../shared/format.ts';
import type { FilePart } from '../../../shared/schemas.ts';
import { extensionOfType } from './file-types.ts';

/** A name an agent chose can hold anything; a saved file's name keeps at most this many characters. */
const MAX_NAME_LENGTH = 120;
/** `orders-1.csv` … `orders-999.csv`, then give up: a folder that full is a mistake worth reporting. */
const MAX_SUFFIX = 999;

/**
 * What a reply's file is, for a note: its name (when it has one), type and size.
 *
 * @example describeReplyFile({ type: 'file', data: 'data:text/csv;base64,YSxi', mimeType: 'text/csv', filename: 'orders.csv' })
 * // 'file orders.csv · text/csv · 3 B'
 */
export function describeReplyFile(part: FilePart): string {
  return `file${part.filename ? ` ${part.filename}` : ''} · ${part.mimeType} · ${formatBytes(dataUrlBytes(part.data))}`;
}

/**
 * A file name safe to create in the user's folder, from the one the agent gave: no folders, no
 * characters a file system refuses, no leading dots; `file.csv` (by its type) when nothing is left.
 *
 * @example safeFileName('../../etc/passwd', 'text/plain') // 'passwd'
 */
export function safeFileName(name: string | undefined, mimeType: string): string {
  const base = (name ?? '').split(/[\\/]/).pop()!;
  let clean = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  if (!clean) clean = `file.${extensionOfType(mimeType) ?? 'bin'}`;
  if (clean.length > MAX_NAME_LENGTH) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
    clean = clean.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return clean;
}

/**
 * A path the user typed or dropped (at a prompt, where no shell reads it), as an absolute path: a
 * leading `~` is the home folder, and what a terminal writes for a dropped file is undone: quotes
 * around it (`'/My Shots/a.png'`), spaces escaped with a backslash (`/My\\ Shots/a.png`), or a
 * `file://` URL.
 *
 * @example resolveTypedPath('~/Downloads') // '/home/ada/Downloads'
 * @example resolveTypedPath("'/tmp/My Shots/a.png'") // '/tmp/My Shots/a.png'
 */
export function resolveTypedPath(typed: string): string {
  let text = typed.trim();
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  if (quoted) text = quoted[2]!;
  else if (text.startsWith('file://')) {
    try {
      text = fileURLToPath(text);
    } catch {
      // Not a local file URL: taken as typed.
    }
  } else if (path.sep === '/') text = text.replace(/\\(.)/g, '$1');
  return path.resolve(text.replace(/^~(?=$|[\\/])/, os.homedir()));
}

/**
 * Writes a reply's file into `dir` (created if missing) and returns the path written.
 * An existing file is never replaced: the name gets `-1`, `-2`, … before its extension.
 *
 * @example const written = await saveReplyFile('./out', part); // './out/orders.csv'
 * @throws the file system's error when the folder cannot be made or written to.
 */
export async function saveReplyFile(dir: string, part: FilePart): Promise<string> {
  return saveNewFile(dir, safeFileName(part.filename, part.mimeType), Buffer.from(splitDataUrl(part.data).data, 'base64'));
}

/**
 * Writes `bytes` into `dir` (created if missing) under `name`, a name safeFileName made, and
 * returns the path written. An existing file is never replaced: `-1`, `-2`, … go before the extension.
 *
 * @example const written = await saveNewFile('./out', 'notes.md', Buffer.from('# Notes')); // './out/notes.md'
 * @throws the file system's error when the folder cannot be made or written to.
 */
export async function saveNewFile(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 0; n <= MAX_SUFFIX; n++) {
    const file = path.join(dir, n === 0 ? name : `${stem}-${n}${ext}`);
    let handle;
    try {
      // `wx`: created here or not at all, so two saves of the same name cannot both take it.
      handle = await open(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await handle.writeFile(bytes);
    } catch (error) {
      // A full disk must not leave half a file under the name the note would have given.
      await handle.close().catch(() => {});
      await rm(file, { force: true }).catch(() => {});
      throw error;
    }
    await handle.close();
    return file;
  }
  throw new Error(`${path.join(dir, name)} and ${MAX_SUFFIX} numbered names after it already exist`);
}
