/**
 * Tells "the server is down" from "the server refused us". A browser hides why a WebSocket failed
 * (a 403 for a wrong token looks like a dead server), so while the toolbar is offline it asks the
 * server's `/health` in `no-cors` mode: that resolves whenever the server answers at all, even with
 * a 403, and rejects only when nothing is listening.
 */
import type { ToolbarState, ToolbarStore } from '../store.ts';

/** Offline and retrying: a client closed for good (or by the page's policy) has nothing to probe for. */
const isRetrying = (s: ToolbarState) => s.sync.status === 'offline';

/** How often to ask again while still offline. */
export const PROBE_EVERY_MS = 15_000;

/** `ws://127.0.0.1:4477/ws` → `http://127.0.0.1:4477/health`. */
export function healthUrlOf(socketUrl: string): string {
  const url = new URL(socketUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  url.pathname = '/health';
  url.search = '';
  return url.toString();
}

/**
 * Keeps `serverRefused` in the store true while the toolbar is offline although the server answers.
 *
 * @example const stop = bindRefusalProbe(window, store, 'ws://127.0.0.1:4477/ws');
 */
export function bindRefusalProbe(win: Pick<Window, 'fetch' | 'setTimeout' | 'clearTimeout'>, store: ToolbarStore, socketUrl: string): () => void {
  const health = healthUrlOf(socketUrl);
  let timer: number | null = null;
  let stopped = false;

  const probe = () => {
    timer = null;
    win.fetch(health, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' }).then(
      () => true,
      () => false,
    ).then((answers) => {
      if (stopped || !isRetrying(store.getState())) return;
      if (store.getState().serverRefused !== answers) store.setState({ serverRefused: answers });
      timer = win.setTimeout(probe, PROBE_EVERY_MS);
    });
  };

  const unsubscribe = store.subscribe((s, prev) => {
    const now = isRetrying(s);
    if (now === isRetrying(prev)) return;
    if (now) {
      if (timer === null) probe();
    } else {
      if (timer !== null) win.clearTimeout(timer);
      timer = null;
      if (s.serverRefused) store.setState({ serverRefused: false });
    }
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer !== null) win.clearTimeout(timer);
  };
}
