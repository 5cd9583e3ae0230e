/**
 * Whether an attached file is text an agent can read, and that text. The type alone is not
 * enough: browsers label a `.ts` file `video/mp2t`, and send files they have no type for
 * (`.env`, `Makefile`, `.tsx`, `.vue`) as `application/octet-stream`. So a file whose type says
 * text is decoded as such, and any other file that is not an image, a PDF or audio counts as text
 * when its bytes are UTF-8 with no NUL in them.
 */
import { AGENT_IMAGE_MIME_TYPES, splitDataUrl } from '../../shared/data-url.ts';

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

/** How an agent is told that the text after it is an attached SVG's source. */
export const SVG_SOURCE_HEADING = 'Attached image (image/svg+xml), as its SVG source:';

/** What an attached image is to an agent: one it can be sent, SVG source it reads, or neither. */
export type AttachedImage = { kind: 'image'; mimeType: string } | { kind: 'svg'; text: string } | { kind: 'unsupported'; mimeType: string };

/**
 * How an image part can reach an agent. Model APIs and coding agents take PNG, JPEG, GIF and WebP
 * and fail the whole request on any other type; an SVG is text, and its source tells a coding
 * agent more than its pixels would. An image of no known type goes as it is.
 *
 * @example readAttachedImage('data:image/svg+xml;base64,PHN2Zy8+') // { kind: 'svg', text: '<svg/>' }
 */
export function readAttachedImage(dataUrl: string, mimeType?: string): AttachedImage {
  const split = splitDataUrl(dataUrl);
  // A client may add parameters (`image/svg+xml; charset=utf-8`): the type is what counts.
  const type = (mimeType ?? split.mimeType).split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') {
    const text = decodeUtf8Text(Buffer.from(split.data, 'base64'));
    return text !== null ? { kind: 'svg', text } : { kind: 'unsupported', mimeType: type };
  }
  if (!type.startsWith('image/') || AGENT_IMAGE_MIME_TYPES.includes(type)) return { kind: 'image', mimeType: type };
  return { kind: 'unsupported', mimeType: type };
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
