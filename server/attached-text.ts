/**
 * Whether an attached file is text an agent can read, and that text. The type alone is not
 * enough: browsers label a `.ts` file `video/mp2t`, and send files they have no type for
 * (`.env`, `Makefile`, `.tsx`, `.vue`) as `application/octet-stream`. So a file whose type says
 * text is decoded as such, and any other file that is not an image, a PDF or audio counts as text
 * when its bytes are UTF-8 with no NUL in them.
 */
import { splitDataUrl } from '../shared/data-url.ts';

const TEXT_MIME = /^(?:text\/|application\/(?:json|ld\+json|xml|javascript|typescript|x-sh|x-yaml|yaml|toml|sql|graphql|x-httpd-php)\b)|\+(?:json|xml)$/;
/** Types a model may take as they are (vision, PDF, audio input), never read as text. */
const MEDIA_MIME = /^(?:image\/|audio\/|application\/pdf$)/;

/** True for images, PDFs and audio: what some models take as they are and others refuse. */
export function isMediaMime(mimeType: string): boolean {
  return MEDIA_MIME.test(mimeType);
}

/**
 * The text of an attached file (a base64 data URL), or null when it is not text.
 *
 * @example readAttachedText('data:video/mp2t;base64,ZXhwb3J0IGNvbnN0IGEgPSAxOw==', 'video/mp2t') // 'export const a = 1;'
 */
export function readAttachedText(dataUrl: string, mimeType: string): string | null {
  if (isMediaMime(mimeType)) return null;
  const bytes = Buffer.from(splitDataUrl(dataUrl).data, 'base64');
  if (TEXT_MIME.test(mimeType)) return new TextDecoder('utf-8').decode(bytes);
  return decodeUtf8Text(bytes);
}

/**
 * The bytes as text when they are UTF-8 text: they decode without error and hold no NUL, which
 * text files never do and binary formats nearly always do; else null.
 *
 * @example decodeUtf8Text(Buffer.from('KEY=value')) // 'KEY=value'
 */
export function decodeUtf8Text(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
