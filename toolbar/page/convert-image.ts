/**
 * Turns an image not every agent takes into one they all do, and one too large to send into one
 * that fits. Model APIs and coding agents refuse the whole request for a BMP or an AVIF, Ollama
 * refuses any GIF and OpenAI an animated one; the browser decodes them all, so the toolbar sends
 * what it shows, as a PNG (a JPEG when the PNG would be over the size limit). A GIF becomes its
 * first frame, the one a model would see. An image over what Claude's API takes (5 MiB of base64,
 * 8,000 pixels on a side) is scaled down until it fits: models look at far fewer pixels anyway.
 * An SVG stays as it is: agents read its source.
 */
import { AGENT_IMAGE_MIME_TYPES, IMAGE_MIME_TYPES } from '../../shared/data-url.ts';

/** The image types sent as they are: what every agent takes (Ollama no GIF), and an SVG for its source. */
const SENT_AS_THEY_ARE: readonly string[] = [...AGENT_IMAGE_MIME_TYPES.filter((type) => type !== 'image/gif'), 'image/svg+xml'];

/**
 * The largest image sent as it is: Anthropic's API (Claude Code's, over ACP) refuses an image whose
 * base64 is over 5 MiB, and with it the whole turn. Larger ones are redrawn until they fit.
 */
export const MAX_SENT_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);

/**
 * The longest side sent: Anthropic's API refuses an image over 8,000 pixels on a side (a
 * full-page screenshot is often taller), so a longer one is scaled down to it.
 */
export const MAX_IMAGE_SIDE = 8000;

/** Images larger than this are not decoded (a 4K screenshot as a BMP is about 25 MB). */
export const MAX_CONVERTED_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Most pixels drawn: a larger image is scaled down to this (4096 × 4096), which bounds the canvas's
 * memory whatever the file claims, and is still more than any model looks at.
 */
export const MAX_CONVERTED_PIXELS = 4096 * 4096;

/** What `convertImage` gives: the new bytes, their type and the file name to show. */
export interface ConvertedImage {
  bytes: Uint8Array;
  mimeType: string;
  name: string;
}

/**
 * Whether an image goes through `convertImage` before it is sent: every picture does (an SVG
 * does not), which keeps one that every agent takes and fits as it is, and redraws the rest.
 */
export function needsConversion(mimeType: string): boolean {
  return (IMAGE_MIME_TYPES.includes(mimeType) && mimeType !== 'image/svg+xml') || HEIF_TYPES.includes(mimeType);
}

/**
 * iPhone photos. Safari decodes them and they go as a PNG or JPEG like any picture; a browser that
 * cannot (Chromium) sends them as files, as before.
 */
const HEIF_TYPES: readonly string[] = ['image/heic', 'image/heif'];

/**
 * The image as agents take it: null when it already is (a PNG, JPEG or WebP within `maxBytes` and
 * MAX_IMAGE_SIDE), else redrawn as a PNG, or as a JPEG when the PNG is over `maxBytes` (a JPEG
 * first for a JPEG), at most MAX_CONVERTED_PIXELS and then a quarter and a sixteenth of that until
 * one fits. Also null when it cannot be decoded here (no canvas, a broken file, a format this
 * browser does not read) or fits no way, and the caller sends it as it is or refuses it.
 *
 * @example const png = await convertImage(bmpFile, 'shot.bmp', MAX_SENT_IMAGE_BYTES); // { mimeType: 'image/png', name: 'shot.png', … }
 */
export async function convertImage(image: Blob, name: string, maxBytes: number): Promise<ConvertedImage | null> {
  if (typeof createImageBitmap !== 'function' || image.size > MAX_CONVERTED_INPUT_BYTES) return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(image);
  } catch {
    return null;
  }
  if (SENT_AS_THEY_ARE.includes(image.type) && image.size <= maxBytes && Math.max(bitmap.width, bitmap.height) <= MAX_IMAGE_SIDE) {
    bitmap.close();
    return null;
  }
  const types = image.type === 'image/jpeg' ? JPEG_FIRST : PNG_FIRST;
  try {
    for (const pixels of [MAX_CONVERTED_PIXELS, MAX_CONVERTED_PIXELS / 4, MAX_CONVERTED_PIXELS / 16]) {
      const encode = drawOnCanvas(bitmap, pixels);
      if (!encode) return null;
      for (const [mimeType, extension] of types) {
        const blob = await encode(mimeType);
        // A browser that cannot encode a type gives a PNG instead: only a match counts.
        if (blob && blob.type === mimeType && blob.size <= maxBytes) {
          return { bytes: new Uint8Array(await blob.arrayBuffer()), mimeType, name: withExtension(name, extension) };
        }
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    bitmap.close();
  }
}

const PNG_FIRST = [['image/png', 'png'], ['image/jpeg', 'jpg']] as const;
const JPEG_FIRST = [['image/jpeg', 'jpg'], ['image/png', 'png']] as const;

/**
 * A canvas of at most `maxPixels` for the bitmap, and a way to encode it as a type; null when there
 * is no 2D canvas. A JPEG has no transparency: it gets a white background, as a page would show it,
 * where the canvas would give black (the shadow around a macOS window screenshot).
 */
function drawOnCanvas(bitmap: ImageBitmap, maxPixels: number): ((type: string) => Promise<Blob | null>) | null {
  const scale = Math.min(1, Math.sqrt(maxPixels / Math.max(1, bitmap.width * bitmap.height)), MAX_IMAGE_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.floor(bitmap.width * scale));
  const height = Math.max(1, Math.floor(bitmap.height * scale));
  const paint = (context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, type: string) => {
    context.clearRect(0, 0, width, height);
    if (type === 'image/jpeg') {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, width, height);
    }
    context.drawImage(bitmap, 0, 0, width, height);
  };
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    return (type) => {
      paint(context, type);
      return canvas.convertToBlob({ type, quality: 0.92 });
    };
  }
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  return (type) => {
    paint(context, type);
    return new Promise((resolve) => canvas.toBlob(resolve, type, 0.92));
  };
}

/** `shot.bmp` → `shot.png`; a name without an extension gets one. */
function withExtension(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.${extension}`;
}
