/**
 * Where the toolbar connects. Two ways to configure it, first found wins:
 *   1. `window.__AGENTBAR__ = { url: 'ws://127.0.0.1:4477/ws', token: '…' }` set before the script;
 *   2. attributes on the script tag itself: `<script src=".../toolbar.js" data-url="…" data-token="…">`.
 * `url` may also be the server's http(s) origin; it is turned into its `/ws` WebSocket URL.
 */

export interface ToolbarConfig {
  /** The WebSocket URL without the token, e.g. `ws://127.0.0.1:4477/ws`. */
  url: string;
  token: string;
}

export interface ConfigSources {
  /** `window.__AGENTBAR__`, whatever the page put there. */
  global: unknown;
  /** The script tag's `data-url` / `data-token`, when there is a script tag. */
  script: { url: string | null; token: string | null } | null;
}

export type ConfigResult = { ok: true; config: ToolbarConfig } | { ok: false; error: string };

function normalizeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/ws';
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null;
  url.searchParams.delete('token');
  url.hash = '';
  return url.toString();
}

/**
 * Picks the config from the global or the script tag and checks it.
 *
 * @example
 * resolveConfig({ global: { url: 'http://127.0.0.1:4477', token: 't' }, script: null })
 * // { ok: true, config: { url: 'ws://127.0.0.1:4477/ws', token: 't' } }
 */
export function resolveConfig(sources: ConfigSources): ConfigResult {
  let url: unknown;
  let token: unknown;
  const g = sources.global;
  if (g && typeof g === 'object') {
    url = (g as { url?: unknown }).url;
    token = (g as { token?: unknown }).token;
  }
  if (url === undefined && token === undefined && sources.script) {
    url = sources.script.url ?? undefined;
    token = sources.script.token ?? undefined;
  }
  if (typeof url !== 'string' || !url.trim()) {
    return { ok: false, error: 'No server URL: set window.__AGENTBAR__ = { url, token } or data-url on the script tag' };
  }
  if (typeof token !== 'string' || !token.trim()) {
    return { ok: false, error: 'No token: set window.__AGENTBAR__ = { url, token } or data-token on the script tag' };
  }
  const normalized = normalizeUrl(url);
  if (!normalized) return { ok: false, error: `Not a ws(s) or http(s) URL: ${url}` };
  return { ok: true, config: { url: normalized, token: token.trim() } };
}

/**
 * The URL the socket opens: the config URL with `?token=`.
 *
 * @example
 * buildSocketUrl({ url: 'ws://127.0.0.1:4477/ws', token: 'a b' }) // 'ws://127.0.0.1:4477/ws?token=a+b'
 */
export function buildSocketUrl(config: ToolbarConfig): string {
  const url = new URL(config.url);
  url.searchParams.set('token', config.token);
  return url.toString();
}
