/**
 * Starts the page capture on a page where the early script did not run (one that loads the
 * toolbar with a plain script tag) by loading that same script, `page-capture.js`, from beside the
 * toolbar's own at boot. So the toolbar's bundle, which every page view loads, carries no second
 * copy of the capture, which the pages that have the early script would never use.
 */
import { defineLazyScript } from './lazy-script.ts';
import { PAGE_CAPTURE_REGISTER, type installPageCapture } from './page-capture.ts';

type InstallPageCapture = typeof installPageCapture;

/** How long the toolbar waits for the capture script; a later read says it did not come. */
export const PAGE_CAPTURE_LOAD_TIMEOUT_MS = 10_000;

const captureScript = defineLazyScript('page-capture.js', PAGE_CAPTURE_REGISTER, (value): value is InstallPageCapture => typeof value === 'function');

/**
 * Loads the capture and starts it as the toolbar's: resolves null once it runs, or with why
 * nothing will be captured, in words for the agent.
 *
 * @example bindPageLog(window, socketUrl, () => startPageCapture(window));
 */
export async function startPageCapture(win: Window): Promise<string | null> {
  const install = await captureScript.load(win, PAGE_CAPTURE_LOAD_TIMEOUT_MS);
  if (!install) return `Nothing was captured on this page: ${captureScript.whyNotLoaded()}.`;
  install(win, 'toolbar');
  return null;
}
