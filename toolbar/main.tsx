/**
 * Entry of `dist/toolbar.js`, the launcher, a classic script any page can load:
 *
 *   <script>window.__AGENTBAR__ = { url: 'ws://127.0.0.1:4477/ws', token: '…' }</script>
 *   <script src="http://127.0.0.1:4477/toolbar.js" defer></script>
 *
 * or, without the global: <script src="…/toolbar.js" data-url="ws://…/ws" data-token="…">.
 * Loading it twice mounts one toolbar. It draws the launcher and loads the panel (`panel.js`,
 * launcher.ts says when) from beside itself.
 */
import { resolveConfig } from './config.ts';
import { mountLauncher } from './launcher.ts';
import { configureScripts } from './page/load-script.ts';

const MOUNTED = Symbol.for('agentbar.toolbar');

// Only readable while this script runs for the first time, so read it now.
const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;

function boot(): void {
  const marks = window as unknown as Record<symbol, unknown>;
  if (marks[MOUNTED]) return;
  const config = resolveConfig({
    global: (window as { __AGENTBAR__?: unknown }).__AGENTBAR__,
    script: script ? { url: script.getAttribute('data-url'), token: script.getAttribute('data-token') } : null,
  });
  // Optional scripts load on demand from beside this one: panel.js, page-capture.js, and the panel's own.
  const scripts = { root: script?.src ? new URL('.', script.src).href : null, nonce: script?.nonce || undefined };
  configureScripts(scripts);
  const handle = mountLauncher(window, config, scripts);
  if (handle) marks[MOUNTED] = { unmount: handle.unmount };
}

boot();
