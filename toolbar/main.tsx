/**
 * Entry of `dist/toolbar.js`, a classic script any page can load:
 *
 *   <script>window.__AGENTBAR__ = { url: 'ws://127.0.0.1:4477/ws', token: '…' }</script>
 *   <script src="http://127.0.0.1:4477/toolbar.js" defer></script>
 *
 * or, without the global: <script src="…/toolbar.js" data-url="ws://…/ws" data-token="…">.
 * Loading it twice mounts one toolbar.
 */
import { resolveConfig } from './config.ts';
import { configureGrammars } from './markdown/grammar-loader.ts';
import { mountToolbar } from './mount.tsx';
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
  // Optional scripts load on demand from beside this one: grammars (dist/lang/NAME.js), screenshot.js.
  configureScripts({ root: script?.src ? new URL('.', script.src).href : null, nonce: script?.nonce });
  configureGrammars(window, { base: script?.src ? new URL('lang/', script.src).href : null, nonce: script?.nonce });
  const handle = mountToolbar(window, config);
  if (handle) marks[MOUNTED] = { unmount: handle.unmount };
}

boot();
