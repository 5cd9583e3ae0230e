/**
 * Turns a drawn canvas into a data URL within a length: a PNG keeps a page's text and edges
 * exact, so it is tried first; a photo-heavy crop becomes a JPEG, and one still too long is
 * drawn smaller until it fits.
 */

/** What the encoder needs of a canvas (tests pass a fake). */
export interface EncodableCanvas {
  width: number;
  height: number;
  toDataURL(type: string, quality?: number): string;
}

export interface EncodedPicture {
  dataUrl: string;
  mimeType: string;
  width: number;
  height: number;
}

const JPEG_QUALITY = 0.85;
/** Smaller redraws tried before giving up. */
const MAX_SHRINKS = 4;

function encoded(canvas: EncodableCanvas, dataUrl: string): EncodedPicture {
  // A browser that cannot write the type asked for writes a PNG: the URL says which it is.
  return { dataUrl, mimeType: dataUrl.slice(5, dataUrl.indexOf(';')), width: canvas.width, height: canvas.height };
}

/**
 * The smallest-effort encoding of `canvas` whose data URL is at most `maxLength` characters; null
 * when even the smallest redraw is over it. `shrink` redraws a canvas at `factor` of its size.
 *
 * @example const picture = encodePicture(canvas, 1_000_000, (c, f) => redraw(c, f));
 */
export function encodePicture(canvas: EncodableCanvas, maxLength: number, shrink: (canvas: EncodableCanvas, factor: number) => EncodableCanvas): EncodedPicture | null {
  const png = canvas.toDataURL('image/png');
  if (png.length <= maxLength) return encoded(canvas, png);
  let current = canvas;
  let jpeg = current.toDataURL('image/jpeg', JPEG_QUALITY);
  for (let shrinks = 0; jpeg.length > maxLength; shrinks++) {
    if (shrinks === MAX_SHRINKS || current.width <= 1 || current.height <= 1) return null;
    // The length falls about with the area: aim a little under, so one redraw usually does.
    current = shrink(current, Math.sqrt(maxLength / jpeg.length) * 0.9);
    jpeg = current.toDataURL('image/jpeg', JPEG_QUALITY);
  }
  return encoded(current, jpeg);
}
