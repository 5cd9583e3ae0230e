/**
 * Entry of `dist/screenshot.js`, the page-drawing code the toolbar loads the first time it takes a
 * picture (screenshot-loader.ts): it hands its one function to the toolbar that configured the
 * page, and does nothing on a page without one.
 */
import { drawPicture } from './draw-picture.ts';
import { PICTURE_REGISTER } from './picture-api.ts';

const register = (self as unknown as Record<symbol, unknown>)[PICTURE_REGISTER];
if (typeof register === 'function') register({ draw: drawPicture });
