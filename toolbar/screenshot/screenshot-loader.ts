/**
 * Takes pictures of the page with the drawing code of `screenshot.js`, which the toolbar loads
 * from beside its own script the first time it needs it (like the highlighter's grammars), so its
 * bundle does not carry it. Every picture is bounded in time, size and length (SCREENSHOT_LIMITS).
 */
import { SCREENSHOT_LIMITS } from '../../shared/limits.ts';
import { defineLazyScript } from '../page/lazy-script.ts';
import { PICTURE_REGISTER, type DrawnPicture, type PictureApi } from './picture-api.ts';

function isPictureApi(value: unknown): value is PictureApi {
  return typeof value === 'object' && value !== null && typeof (value as { draw?: unknown }).draw === 'function';
}

/** The drawing code, loaded once; after a failed load the next picture tries again. */
const drawingScript = defineLazyScript('screenshot.js', PICTURE_REGISTER, isPictureApi);

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took longer than ${Math.ceil(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A picture of `target` with a margin around it, or of the viewport when `target` is null,
 * leaving out `exclude` (the toolbar). Rejects with a reason a person can read.
 *
 * @example const picture = await takePicture(window, host, button, 3_000);
 */
export function takePicture(win: Window, exclude: Node, target: Element | null, timeoutMs: number): Promise<DrawnPicture> {
  const { marginPx: margin, maxSide, maxDataUrlLength } = SCREENSHOT_LIMITS;
  const work = async () => {
    const drawing = await drawingScript.load(win, timeoutMs);
    if (!drawing) throw new Error('the drawing code (screenshot.js) could not be loaded from the agent server');
    return drawing.draw(win, { target, exclude, margin, maxSide, maxDataUrlLength, timeoutMs });
  };
  return withinTime(work(), timeoutMs);
}
