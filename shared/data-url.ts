/**
 * The base64 data URLs messages carry files and images in (`data:text/csv;base64,…`): their parts,
 * their decoded size, and how large a file or a message's files may be. The schemas check the
 * shape; these helpers assume a URL that passed them.
 */
import { LIMITS } from './limits.ts';

/**
 * Length of the data URL a file of `size` bytes becomes.
 *
 * @example dataUrlLength(3, 'text/plain') // 27
 */
export function dataUrlLength(size: number, mime: string): number {
  return `data:${mime};base64,`.length + 4 * Math.ceil(size / 3);
}

/** The image types the clients send as image parts (what browsers show); any other file goes as a file part. */
export const IMAGE_MIME_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/svg+xml'];

/**
 * The image types agents are sent as images: what OpenAI's and Anthropic's APIs take (Ollama's
 * takes all but GIF). None takes SVG, BMP or AVIF: the toolbar turns those, and GIFs, into PNGs
 * before sending them (toolbar/page/convert-image.ts), and agents read an SVG as its source.
 */
export const AGENT_IMAGE_MIME_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Largest file whose data URL fits LIMITS.maxDataUrlLength (about 5 MB). */
export const MAX_ATTACHMENT_BYTES = Math.floor(((LIMITS.maxDataUrlLength - 100) / 4) * 3);

/** What the data URLs of one message may add up to, leaving room for the frame's JSON around them. */
export const MAX_ATTACHMENTS_LENGTH = LIMITS.maxFrameBytes - 512 * 1024;

/** About how many bytes of files that is (base64 takes 4 characters for 3 bytes), as users count them. */
export const MAX_ATTACHMENTS_BYTES = Math.floor((MAX_ATTACHMENTS_LENGTH * 3) / 4);

/**
 * A data URL's mime type and base64 payload.
 *
 * @example splitDataUrl('data:text/csv;base64,YSxi') // { mimeType: 'text/csv', data: 'YSxi' }
 */
export function splitDataUrl(url: string): { mimeType: string; data: string } {
  const comma = url.indexOf(',');
  const mimeType = url.slice(5, url.indexOf(';'));
  return { mimeType, data: url.slice(comma + 1) };
}

/**
 * The number of bytes a base64 data URL decodes to, without decoding it.
 *
 * @example dataUrlBytes('data:text/plain;base64,YWI=') // 2
 */
export function dataUrlBytes(url: string): number {
  const comma = url.indexOf(',');
  if (comma < 0) return 0;
  const length = url.length - comma - 1;
  const padding = url.endsWith('==') ? 2 : url.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}
