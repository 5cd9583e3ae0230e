/**
 * Loads `page-tools.js` from beside the toolbar's own script the first time an agent calls one of
 * its tools (as the grammars and `screenshot.js` are loaded), and says what the page must allow
 * when it cannot be loaded.
 */
import { defineLazyScript } from '../page/lazy-script.ts';
import { PAGE_TOOLS_REGISTER, type PageToolsLoad, type RunPageTool } from './page-tools-api.ts';

/** How long a tool call waits for the code the first time; a later call tries again. */
export const PAGE_TOOLS_LOAD_TIMEOUT_MS = 10_000;

const pageToolsScript = defineLazyScript('page-tools.js', PAGE_TOOLS_REGISTER, (value): value is RunPageTool => typeof value === 'function');

/**
 * The runner of the tools of `page-tools.js`, loaded once; or, when it cannot be loaded, what to change.
 *
 * @example const loaded = await loadPageTools(window); if (!loaded.ok) return toolError(loaded.error);
 */
export async function loadPageTools(win: Window): Promise<PageToolsLoad> {
  const run = await pageToolsScript.load(win, PAGE_TOOLS_LOAD_TIMEOUT_MS);
  return run ? { ok: true, run } : { ok: false, error: `${pageToolsScript.whyNotLoaded()}.` };
}
