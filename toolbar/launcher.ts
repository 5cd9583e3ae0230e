/**
 * What `toolbar.js` does on every page view: the `<agentbar-toolbar>` host with its shadow root,
 * the launcher button, the page capture (on a page without the early script), and the panel's code
 * (`panel.js`) loaded on idle, so the agent's page tools and the launcher's status are there soon
 * after load and a first open is instant; loaded at once when the panel was open before a reload
 * or the launcher is clicked first.
 */
import type { ConfigResult } from './config.ts';
import { drawLauncher } from './launcher-button.ts';
import { followVisualViewport } from './page/follow-visual-viewport.ts';
import { startPageCapture } from './page/page-capture-loader.ts';
import { isPageCaptureInstalled } from './page/page-capture.ts';
import type { PanelHandle } from './panel-api.ts';
import { loadPanel } from './panel-loader.ts';
import { loadPrefs, pageStorage } from './prefs.ts';
import { LAUNCHER_CSS } from './styles.ts';

export const HOST_TAG = 'agentbar-toolbar';

/** How long after the page's load the panel's code waits at most for an idle moment. */
export const PANEL_IDLE_TIMEOUT_MS = 3_000;

/**
 * Runs `run` once the page has loaded and the main thread is idle; returns the cancel.
 *
 * @example const cancel = whenIdle(window, () => load());
 */
export function whenIdle(win: Window, run: () => void): () => void {
  let cancel = () => {};
  const schedule = () => {
    if (typeof win.requestIdleCallback === 'function') {
      const id = win.requestIdleCallback(run, { timeout: PANEL_IDLE_TIMEOUT_MS });
      cancel = () => win.cancelIdleCallback(id);
    } else {
      // Safari has no requestIdleCallback: a moment after load is idle enough.
      const id = win.setTimeout(run, 300);
      cancel = () => win.clearTimeout(id);
    }
  };
  if (win.document.readyState === 'complete') schedule();
  else {
    win.addEventListener('load', schedule, { once: true });
    cancel = () => win.removeEventListener('load', schedule);
  }
  return () => cancel();
}

/**
 * Puts the launcher into the page, once: a second call returns null and changes nothing.
 *
 * @example mountLauncher(window, resolveConfig({ global: window.__AGENTBAR__, script: null }), { root: null });
 */
export function mountLauncher(win: Window, config: ConfigResult, scripts: { root: string | null; nonce?: string }): { host: HTMLElement; unmount(): void } | null {
  const doc = win.document;
  if (doc.querySelector(HOST_TAG)) return null;
  const host = doc.createElement(HOST_TAG);
  const shadow = host.attachShadow({ mode: 'open' });
  const style = doc.createElement('style');
  style.textContent = LAUNCHER_CSS;
  shadow.append(style);
  const prefs = loadPrefs(pageStorage(win));
  const launcher = drawLauncher(doc, shadow, prefs.theme);
  doc.documentElement.append(host);
  const unfollow = followVisualViewport(win, host);

  if (!config.ok) {
    console.error(`[agentbar] ${config.error}`);
    launcher.update({ dot: 'offline', waiting: 0, title: 'agentbar: not configured' });
  }
  // The capture records the page from the toolbar's start; the panel reads what it gathered.
  const pageCapture = config.ok && !isPageCaptureInstalled(win) ? startPageCapture(win) : null;

  let panel: PanelHandle | null = null;
  let loading: Promise<void> | null = null;
  let gone = false;
  // A click while the idle load is under way still opens the panel when it arrives.
  let openNow = false;
  const load = () =>
    (loading ??= loadPanel(win).then((loaded) => {
      if (gone) return;
      if (!loaded.ok) {
        loading = null;
        openNow = false;
        console.warn(`[agentbar] The panel could not be loaded: ${loaded.error}`);
        launcher.update({ dot: 'offline', waiting: 0, title: `agentbar: the panel could not be loaded. ${loaded.error}` });
        launcher.setHidden(false);
        return;
      }
      panel = loaded.mount({ win, host, shadow, config, scripts, launcher, openNow, pageCapture });
    }));
  // A click before the panel is there loads it and opens it; the panel then takes the clicks over.
  launcher.setClick(() => {
    openNow = true;
    void load();
  });
  let cancelIdle = () => {};
  if (config.ok && prefs.open) {
    // Open before the reload: the panel comes back as soon as its code is here, with no launcher flash.
    launcher.setHidden(true);
    void load();
  } else if (config.ok) {
    cancelIdle = whenIdle(win, () => void load());
  }

  return {
    host,
    unmount() {
      gone = true;
      cancelIdle();
      panel?.unmount();
      unfollow();
      host.remove();
    },
  };
}
