/**
 * Makes a message's images fit what one message carries (about 5.6 MB). Two or three Retina
 * screenshots often add up to more; rather than refusing the message, the largest images are
 * redrawn smaller (`convert-image.ts`) until the whole fits. Files and SVGs stay as they are.
 */
import { dataUrlBytes, MAX_ATTACHMENTS_BYTES, splitDataUrl } from '../../shared/data-url.ts';
import type { Attachment } from '../store.ts';
import { fromBase64, toBase64 } from './base64.ts';
import { convertImage } from './convert-image.ts';

/** Room kept for rounding: the limit counts base64 characters, and the images' own prefixes. */
const MARGIN = 0.98;
/** No image is squeezed under this: a message that needs it has too much else in it. */
const MIN_IMAGE_BYTES = 64 * 1024;

/** Redraws an image attachment to at most `maxBytes`, or gives null when it cannot. */
export type ImageShrinker = (attachment: Attachment, maxBytes: number) => Promise<Attachment | null>;

/**
 * The images to replace so the attachments fit one message, each with its smaller version (same
 * id); none when they fit already, or when shrinking cannot make them fit.
 *
 * @example for (const next of await fitAttachments(state.attachments)) state.replaceAttachment(next);
 */
export async function fitAttachments(attachments: readonly Attachment[], shrink: ImageShrinker = shrinkInBrowser): Promise<Attachment[]> {
  const size = (a: Attachment) => dataUrlBytes(a.dataUrl);
  const total = attachments.reduce((sum, a) => sum + size(a), 0);
  if (total <= MAX_ATTACHMENTS_BYTES) return [];
  const shrinkable = attachments.filter((a) => a.kind === 'image' && a.mimeType !== 'image/svg+xml').sort((a, b) => size(a) - size(b));
  const fixed = total - shrinkable.reduce((sum, a) => sum + size(a), 0);
  let room = Math.floor(MAX_ATTACHMENTS_BYTES * MARGIN) - fixed;
  if (shrinkable.length === 0 || room < MIN_IMAGE_BYTES * shrinkable.length) return [];
  const replaced: Attachment[] = [];
  // Smallest first: an image under its share leaves the rest of its share to the larger ones.
  for (let i = 0; i < shrinkable.length; i++) {
    const image = shrinkable[i]!;
    const share = Math.floor(room / (shrinkable.length - i));
    if (size(image) <= share) {
      room -= size(image);
      continue;
    }
    const smaller = await shrink(image, share);
    if (!smaller || size(smaller) > share) return [];
    replaced.push(smaller);
    room -= size(smaller);
  }
  return replaced;
}

/** In a browser: decodes the image from its data URL and redraws it with the canvas. */
const shrinkInBrowser: ImageShrinker = async (attachment, maxBytes) => {
  const { mimeType, data } = splitDataUrl(attachment.dataUrl);
  const converted = await convertImage(new Blob([fromBase64(data)], { type: mimeType }), attachment.name, maxBytes);
  if (!converted) return null;
  return { ...attachment, name: converted.name, mimeType: converted.mimeType, dataUrl: `data:${converted.mimeType};base64,${toBase64(converted.bytes)}` };
};
