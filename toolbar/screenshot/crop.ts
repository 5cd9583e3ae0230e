/**
 * Where a picture of the page is cut, and at what scale. Rectangles are in CSS pixels relative to
 * the viewport, as `getBoundingClientRect` gives them: the page is drawn scrolled as it is, so a
 * crop may lie partly or wholly outside the viewport (off-screen content is drawn too), but never
 * outside the document.
 */

export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page's geometry: its scroll position and the size of its whole document, in CSS pixels. */
export interface PageBox {
  scrollX: number;
  scrollY: number;
  documentWidth: number;
  documentHeight: number;
}

/**
 * The rectangle around an element, `margin` CSS pixels wider on each side, cut to the document and
 * rounded out to whole pixels; null when nothing of it is left (an element with no box).
 *
 * @example cropAround({ x: 100, y: 50, width: 80, height: 30 }, { scrollX: 0, scrollY: 0, documentWidth: 1280, documentHeight: 2000 }, 16)
 * // { x: 84, y: 34, width: 112, height: 62 }
 */
export function cropAround(rect: CropRect, page: PageBox, margin: number): CropRect | null {
  if (!(rect.width > 0 && rect.height > 0)) return null;
  // `0 - scroll`: a crop at the page's corner starts at 0, not -0.
  const left = Math.max(Math.floor(rect.x - margin), 0 - page.scrollX);
  const top = Math.max(Math.floor(rect.y - margin), 0 - page.scrollY);
  const right = Math.min(Math.ceil(rect.x + rect.width + margin), page.documentWidth - page.scrollX);
  const bottom = Math.min(Math.ceil(rect.y + rect.height + margin), page.documentHeight - page.scrollY);
  if (right <= left || bottom <= top) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * Device pixels per CSS pixel for a picture of `crop`: the screen's own ratio, lowered so its
 * longest side stays within `maxSide`.
 *
 * @example pictureScale({ x: 0, y: 0, width: 1280, height: 720 }, 2, 1568) // 1.225
 */
export function pictureScale(crop: CropRect, devicePixelRatio: number, maxSide: number): number {
  const ratio = devicePixelRatio > 0 && Number.isFinite(devicePixelRatio) ? devicePixelRatio : 1;
  const longest = Math.max(crop.width, crop.height);
  return Math.min(ratio, maxSide / longest);
}
