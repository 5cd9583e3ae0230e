/**
 * Files named in the terminal (`agentbar chat -m … --attach FILE`, `/attach FILE`) as message
 * parts, the way the toolbar sends a file the developer picked: images as image parts, anything
 * else as a file part, each a base64 data URL within the protocol's limits. The type comes from
 * the extension; a file with an extension not listed here is sent as `text/plain` when its bytes
 * are text, else as `application/octet-stream`. A pipe works too: `--attach -` reads standard input.
 */
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { dataUrlBytes, IMAGE_MIME_TYPES, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_BYTES, MAX_ATTACHMENTS_LENGTH } from '../../../shared/data-url.ts';
import { formatBytes } from '../../../shared/format.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { FilePart, ImagePart } from '../../../shared/schemas.ts';
import { truncateText } from '../../../shared/truncate.ts';
import { decodeUtf8Text } from '../../sdk/attached-text.ts';
import { typeOfFileName } from './file-types.ts';

export type Attachment = ImagePart | FilePart;

/** A file that cannot be attached, or one too many: the message says which and why. */
export class AttachmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachmentError';
  }
}

/** Reads a stream, failing once it passes `max` bytes rather than holding all of it. */
async function readAtMost(file: string, stream: NodeJS.ReadableStream & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > max) throw new AttachmentError(`Cannot attach ${file}: it is over ${formatBytes(max)}, the most a file can be`);
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/** Names that mean standard input (`-`, as most tools read it, and `/dev/stdin`, which a socket cannot be opened as). */
const STDIN_NAMES = new Set(['-', '/dev/stdin']);

/**
 * One file as a message part; with `stdin`, `-` or `/dev/stdin` reads that stream (`git diff |
 * agentbar chat -m "review" --attach -`), named `stdin`.
 *
 * @example const part = await readAttachment('src/App.tsx'); // a file part, text/plain
 * @throws AttachmentError for a missing file, a folder, a file over the size limit or one that cannot be read.
 */
export async function readAttachment(file: string, options: { stdin?: NodeJS.ReadableStream & { destroy(): void } } = {}): Promise<Attachment> {
  if (options.stdin && STDIN_NAMES.has(file)) return toPart('stdin', await readAtMost('standard input', options.stdin, MAX_ATTACHMENT_BYTES));
  let info: Stats;
  try {
    info = await stat(file);
    if (info.isDirectory()) throw new AttachmentError(`Cannot attach ${file}: it is a folder`);
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new AttachmentError(`Cannot attach ${file}: ${code === 'ENOENT' ? 'there is no such file' : (error as Error).message}`);
  }
  if (info.size > MAX_ATTACHMENT_BYTES) throw new AttachmentError(`Cannot attach ${file}: it is ${formatBytes(info.size)}; a file can be at most ${formatBytes(MAX_ATTACHMENT_BYTES)}`);
  let bytes: Buffer;
  try {
    // A pipe or a device has no size to check first: it is read up to the limit.
    bytes = info.isFile() ? await readFile(file) : await readAtMost(file, createReadStream(file), MAX_ATTACHMENT_BYTES);
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    throw new AttachmentError(`Cannot attach ${file}: ${(error as Error).message}`);
  }
  return toPart(path.basename(file), bytes);
}

function toPart(name: string, bytes: Buffer): Attachment {
  const mimeType = typeOfFileName(name) ?? (decodeUtf8Text(bytes) !== null ? 'text/plain' : 'application/octet-stream');
  const data = `data:${mimeType};base64,${bytes.toString('base64')}`;
  return IMAGE_MIME_TYPES.includes(mimeType) ? { type: 'image', image: data, mimeType } : { type: 'file', data, mimeType, filename: truncateText(name, LIMITS.maxFilenameLength, '') };
}

/**
 * Throws when one message could not carry these parts beside its text: too many, or too many bytes.
 *
 * @example checkAttachments([...pending, next]);
 */
export function checkAttachments(parts: readonly Attachment[]): void {
  // The message's text takes one part.
  if (parts.length > LIMITS.maxParts - 1) throw new AttachmentError(`A message carries at most ${LIMITS.maxParts - 1} files; ${parts.length} were given`);
  const total = parts.reduce((sum, p) => sum + (p.type === 'image' ? p.image : p.data).length, 0);
  if (total > MAX_ATTACHMENTS_LENGTH) throw new AttachmentError(`The files total more than one message carries (${formatBytes(MAX_ATTACHMENTS_BYTES)}); attach fewer`);
}

/**
 * Reads the files for one message, or fails with what is wrong.
 *
 * @example const parts = await readAttachments(['shot.png', 'src/app.ts']);
 * @throws AttachmentError
 */
export async function readAttachments(files: readonly string[], options: { stdin?: NodeJS.ReadableStream & { destroy(): void } } = {}): Promise<Attachment[]> {
  if (files.length > LIMITS.maxParts - 1) throw new AttachmentError(`A message carries at most ${LIMITS.maxParts - 1} files; ${files.length} were given`);
  if (options.stdin && files.filter((f) => STDIN_NAMES.has(f)).length > 1) throw new AttachmentError('Standard input can be attached once');
  const parts: Attachment[] = [];
  for (const file of files) {
    parts.push(await readAttachment(file, options));
    checkAttachments(parts);
  }
  return parts;
}

/**
 * An attachment as the terminal names it: `name` (the file's, for an image), type and size.
 *
 * @example describeAttachment(part) // 'App.tsx (text/plain, 1.2 KB)'
 */
export function describeAttachment(part: Attachment, name?: string): string {
  if (part.type === 'image') return `${name ?? 'an image'} (${part.mimeType ?? 'image'}, ${formatBytes(dataUrlBytes(part.image))})`;
  return `${name ?? part.filename ?? 'a file'} (${part.mimeType}, ${formatBytes(dataUrlBytes(part.data))})`;
}
