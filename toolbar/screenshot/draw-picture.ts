/**
 * Draws a picture of the page from its DOM (modern-screenshot: the document is cloned with its
 * computed styles into an SVG `foreignObject` and painted on a canvas), so no permission prompt
 * is needed and the toolbar, which is left out of the clone, never shows in it. Part of the lazily
 * loaded `screenshot.js`, not of the toolbar's bundle.
 */
import { domToCanvas } from 'modern-screenshot';
import { cropAround, pictureScale, type CropRect } from './crop.ts';
import { encodePicture, type EncodableCanvas, type EncodedPicture } from './encode-picture.ts';

export interface DrawRequest {
  /** The element to picture with `margin` around it; null for the viewport. */
  target: Element | null;
  /** Left out of the picture with everything inside it: the toolbar's host. */
  exclude: Node;
  margin: number;
  maxSide: number;
  maxDataUrlLength: number;
  /** For images and fonts the clone waits for. */
  timeoutMs: number;
}

export interface DrawnPicture extends EncodedPicture {
  /** What the picture shows, in CSS pixels relative to the viewport. */
  area: CropRect;
}

const TRANSPARENT = /^(transparent|rgba\(0, 0, 0, 0\))$/;

/** The colour behind the page: the root's, else the body's (which CSS paints on the canvas), else white. */
function pageBackground(win: Window, doc: Document): string {
  for (const el of [doc.documentElement, doc.body]) {
    const color = el ? win.getComputedStyle(el).backgroundColor : '';
    if (color && !TRANSPARENT.test(color)) return color;
  }
  return '#ffffff';
}

/**
 * Whether the page lets an SVG image from a data URL load: the drawing is one, and a page whose
 * Content-Security-Policy refuses it (`img-src` without `data:`) would get a blank picture.
 */
function canLoadSvgImages(doc: Document): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = doc.createElement('img');
    probe.onload = () => resolve(true);
    probe.onerror = () => resolve(false);
    probe.src = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%20width%3D%221%22%20height%3D%221%22%2F%3E';
  });
}

function redraw(doc: Document, source: EncodableCanvas, factor: number): EncodableCanvas {
  const canvas = doc.createElement('canvas');
  canvas.width = Math.max(1, Math.round(source.width * factor));
  canvas.height = Math.max(1, Math.round(source.height * factor));
  canvas.getContext('2d')?.drawImage(source as HTMLCanvasElement, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/**
 * Draws the viewport, or `target` with a margin, and encodes it within the request's bounds.
 * Throws when the element has no box or the picture cannot be made.
 *
 * @example const picture = await drawPicture(window, { target: button, exclude: host, margin: 16, maxSide: 1568, maxDataUrlLength: 1e6, timeoutMs: 3000 });
 */
export async function drawPicture(win: Window, request: DrawRequest): Promise<DrawnPicture> {
  const doc = win.document;
  const root = doc.documentElement;
  const area = request.target
    ? cropAround(request.target.getBoundingClientRect(), { scrollX: win.scrollX, scrollY: win.scrollY, documentWidth: root.scrollWidth, documentHeight: root.scrollHeight }, request.margin)
    : { x: 0, y: 0, width: root.clientWidth || win.innerWidth, height: root.clientHeight || win.innerHeight };
  if (!area) throw new Error('the element has no box on the page (hidden, or display: contents)');
  if (!(await canLoadSvgImages(doc))) throw new Error("the page's Content-Security-Policy refuses data: images (img-src), which the picture is drawn as");
  const scale = pictureScale(area, win.devicePixelRatio, request.maxSide);
  const box = root.getBoundingClientRect();
  const canvas = await domToCanvas(root, {
    width: area.width,
    height: area.height,
    scale,
    backgroundColor: pageBackground(win, doc),
    // The root keeps its own size; the clone is moved so the crop's corner is at the picture's.
    // The page's scroll offset is applied to the body by restoreScrollPosition, as are inner scrolls.
    style: { width: `${box.width}px`, height: `${box.height}px`, transform: `translate(${-area.x}px, ${-area.y}px)`, transformOrigin: '0 0' },
    filter: (node) => node !== request.exclude,
    features: { restoreScrollPosition: true },
    timeout: request.timeoutMs,
  });
  // Rounding may leave a pixel over the bound.
  const longest = Math.max(canvas.width, canvas.height);
  const sized = longest > request.maxSide ? redraw(doc, canvas, request.maxSide / longest) : canvas;
  const picture = encodePicture(sized, request.maxDataUrlLength, (source, factor) => redraw(doc, source, factor));
  if (!picture) throw new Error('the picture stays too large to send');
  return { ...picture, area };
}
