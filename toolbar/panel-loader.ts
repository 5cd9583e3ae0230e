/**
 * Loads `panel.js`, the toolbar's panel (Preact app, store, sync client, tools), from beside
 * `toolbar.js`: as a classic script, like the other lazy scripts, or, where the page enforces
 * Trusted Types without allowing the `agentbar` policy, with `import()`, which Trusted Types do not
 * guard (the page's script-src, and the launcher's nonce, still apply).
 */
import { defineLazyScript } from './page/lazy-script.ts';
import { scriptUrl } from './page/load-script.ts';
import { isMountPanel, PANEL_REGISTER, type MountPanel } from './panel-api.ts';

/** How long a first open waits for the panel's code; a later open tries again. */
export const PANEL_LOAD_TIMEOUT_MS = 15_000;

const panelScript = defineLazyScript('panel.js', PANEL_REGISTER, isMountPanel);

/**
 * The panel's mount function, loaded once; or, when it cannot be loaded, what the page must allow.
 *
 * @example const loaded = await loadPanel(window); if (loaded.ok) loaded.mount(context);
 */
export async function loadPanel(win: Window): Promise<{ ok: true; mount: MountPanel } | { ok: false; error: string }> {
  const mount = await panelScript.load(win, PANEL_LOAD_TIMEOUT_MS);
  if (mount) return { ok: true, mount };
  const url = scriptUrl('panel.js');
  if (url) {
    let ran = false;
    try {
      // The module runs the same code, which registers where panelScript.load listens.
      await import(/* @vite-ignore */ url);
      ran = true;
    } catch {
      // Blocked or unreachable too: the reason below says what to allow.
    }
    // Registered by the module: load() returns it without loading anything again.
    const imported = ran ? await panelScript.load(win, PANEL_LOAD_TIMEOUT_MS) : null;
    if (imported) return { ok: true, mount: imported };
  }
  return { ok: false, error: `${panelScript.whyNotLoaded()}.` };
}
