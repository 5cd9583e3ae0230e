/**
 * Entry of `dist/page-capture.js`: the script the Vite plugin and the demo page inline first in
 * the page, before any of the page's own scripts, and which the toolbar loads at boot on a page
 * without it. Loaded by the toolbar, it hands the toolbar the capture to start, marked as the
 * toolbar's (page-capture-loader.ts); inline, it starts capturing as the page's.
 */
import { installPageCapture, PAGE_CAPTURE_REGISTER } from './page-capture.ts';

// `window`, not `self`: the tests run the built script with a fake window as that parameter.
const register: unknown = Reflect.get(window, PAGE_CAPTURE_REGISTER);
if (typeof register === 'function') register(installPageCapture);
else installPageCapture(window, 'page');
