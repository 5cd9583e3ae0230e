/**
 * Turns files the developer attached (button, paste, drop) into message attachments: base64 data
 * URLs within the protocol's size limit, images as image parts, anything else as file parts.
 */
import { dataUrlLength, IMAGE_MIME_TYPES, MAX_ATTACHMENT_BYTES } from '../../shared/data-url.ts';
import { formatBytes } from '../../shared/format.ts';
import { makeId } from '../../shared/ids.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { Attachment } from '../store.ts';
import { toBase64 } from './base64.ts';
import { convertImage, MAX_SENT_IMAGE_BYTES, needsConversion, type ConvertedImage } from './convert-image.ts';

const MIME = /^[\w.+-]+\/[\w.+-]+$/;

/** The subset of `File` read here (a `Blob` with a name). */
export interface FileLike {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The mime type sent for a file: its own when well-formed, else `application/octet-stream`. */
export function normalizeMime(type: string): string {
  const bare = type.split(';')[0]!.trim().toLowerCase();
  return MIME.test(bare) && bare.length <= LIMITS.maxMimeTypeLength ? bare : 'application/octet-stream';
}

function cutName(name: string): string {
  const clean = name.trim() || 'attachment';
  return clean.length <= LIMITS.maxFilenameLength ? clean : clean.slice(0, LIMITS.maxFilenameLength);
}

/** Redraws an image so every agent takes it, or gives null to send it as it is. */
export type ImageConverter = (file: FileLike, name: string) => Promise<ConvertedImage | null>;

/** In a browser, a File is a Blob the canvas can decode. */
const convertInBrowser: ImageConverter = (file, name) =>
  typeof Blob !== 'undefined' && file instanceof Blob ? convertImage(file, name, MAX_SENT_IMAGE_BYTES) : Promise.resolve(null);

/**
 * Reads files into attachments; files over the limit are left out with a clear message each.
 * Images go through `convert-image.ts` first: a BMP, an AVIF or a GIF becomes a PNG, and one too
 * large for Claude's API (3.75 MB, 8,000 pixels on a side) is scaled down until it fits.
 *
 * @example
 * const { attachments, errors } = await readAttachments([...input.files]);
 */
export async function readAttachments(files: readonly FileLike[], convert: ImageConverter = convertInBrowser): Promise<{ attachments: Attachment[]; errors: string[] }> {
  const attachments: Attachment[] = [];
  const errors: string[] = [];
  for (const file of files) {
    let mimeType = normalizeMime(file.type);
    let name = cutName(file.name);
    let bytes: Uint8Array | null = null;
    if (needsConversion(mimeType)) {
      const converted = await convert(file, name);
      if (converted) ({ bytes, mimeType, name } = { ...converted, name: cutName(converted.name) });
    }
    const size = bytes ? bytes.length : file.size;
    if (dataUrlLength(size, mimeType) > LIMITS.maxDataUrlLength) {
      errors.push(`${name} is ${formatBytes(size)}; attachments can be at most ${formatBytes(MAX_ATTACHMENT_BYTES)}`);
      continue;
    }
    let dataUrl: string;
    try {
      dataUrl = `data:${mimeType};base64,${toBase64(bytes ?? new Uint8Array(await file.arrayBuffer()))}`;
    } catch (err) {
      errors.push(`${name} could not be read: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (dataUrl.length > LIMITS.maxDataUrlLength) {
      errors.push(`${name} is too large to attach; the limit is ${formatBytes(MAX_ATTACHMENT_BYTES)}`);
      continue;
    }
    attachments.push({ id: makeId('att'), kind: IMAGE_MIME_TYPES.includes(mimeType) ? 'image' : 'file', name, mimeType, dataUrl });
  }
  return { attachments, errors };
}
