/**
 * What `screenshot.js` hands the toolbar (the types only, and the symbol it hands it under), so
 * the toolbar's bundle holds none of the drawing code.
 */
import type { DrawnPicture, DrawRequest } from './draw-picture.ts';

export type { DrawnPicture, DrawRequest } from './draw-picture.ts';

/** Where the script finds the toolbar's register function on `window`. */
export const PICTURE_REGISTER = Symbol.for('agentbar.screenshot');

export interface PictureApi {
  draw(win: Window, request: DrawRequest): Promise<DrawnPicture>;
}
