/**
 * The few pages and scripts the proxy writes itself under `/__agentbar/`: the script that starts
 * the toolbar in a proxied page, the sign-in answer that stores the browser key, and the page that
 * says how to sign in.
 */
import { randomBytes } from 'node:crypto';
import { PROXY_KEY_STORAGE, TOOLBAR_PREFIX } from './proxy-credentials.ts';

/** A value as a JavaScript literal that no `</script>` inside can end early. */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * `/__agentbar/start.js`: reads the browser key from the proxy origin's storage and loads the
 * toolbar with it, through the proxy's own relay (same origin). Without a key it loads nothing and
 * shows a small link to the page that says how to sign in. The toolbar script gets this script's
 * nonce, so a nonce-based policy admits it.
 *
 * @example res.end(renderStartScript())
 */
export function renderStartScript(): string {
  return `(function () {
  var key = null, me = document.currentScript;
  try { key = localStorage.getItem(${scriptLiteral(PROXY_KEY_STORAGE)}); } catch (e) {}
  if (!key) {
    console.warn('[agentbar] This browser is not signed in to the agentbar proxy: open the sign-in address it printed (' + location.origin + '${TOOLBAR_PREFIX}/sign-in says how).');
    var link = document.createElement('a');
    link.href = '${TOOLBAR_PREFIX}/sign-in';
    link.textContent = 'agentbar: sign in';
    link.setAttribute('style', 'position:fixed;right:12px;bottom:12px;z-index:2147483647;font:13px sans-serif;background:#4338ca;color:#fff;padding:6px 10px;border-radius:6px;text-decoration:none');
    (document.body || document.documentElement).appendChild(link);
    return;
  }
  window.__AGENTBAR__ = { url: (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '${TOOLBAR_PREFIX}/ws', token: key };
  var s = document.createElement('script');
  s.src = '${TOOLBAR_PREFIX}/toolbar.js';
  if (me && me.nonce) s.nonce = me.nonce;
  document.head.appendChild(s);
})();
`;
}

/**
 * The tags put after a proxied document's `<head>`: the page capture first (it records the page's
 * console, errors and failed requests from its start, so it runs before any script of the page),
 * then the start script, deferred until the document is parsed. Both carry the page's nonce.
 *
 * @example renderInjectedTags('abc') // '<script src="/__agentbar/page-capture.js" nonce="abc"></script>…'
 */
export function renderInjectedTags(nonce: string | null): string {
  const n = nonce ? ` nonce="${nonce.replace(/[^A-Za-z0-9+/_=-]/g, '')}"` : '';
  return `<script src="${TOOLBAR_PREFIX}/page-capture.js"${n}></script><script src="${TOOLBAR_PREFIX}/start.js" defer${n}></script>`;
}

/** Headers for the proxy's own pages: no framing, no caching, no referrer. */
export function ownPageHeaders(scriptNonce?: string): Record<string, string> {
  const script = scriptNonce ? `; script-src 'nonce-${scriptNonce}'` : '';
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'${script}; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

/**
 * The answer to a live sign-in address: it stores the browser key in the proxy origin's storage and
 * goes on to the app's front page. The only answer of the proxy that holds the key.
 *
 * @example const { html, headers } = renderSignedInPage(deriveProxyKey(token))
 */
export function renderSignedInPage(key: string): { html: string; headers: Record<string, string> } {
  const nonce = randomBytes(16).toString('base64url');
  const html = `<!doctype html><meta charset="utf-8"><title>agentbar</title><p>Signed in. Opening the app…</p>
<script nonce="${nonce}">try { localStorage.setItem(${scriptLiteral(PROXY_KEY_STORAGE)}, ${scriptLiteral(key)}); } catch (e) {} location.replace('/');</script>`;
  return { html, headers: ownPageHeaders(nonce) };
}

/**
 * The page for a browser that is not signed in, or an address that is used up or too old.
 *
 * @example renderProxySignInHelp('used')
 */
export function renderProxySignInHelp(why: 'missing' | 'used'): string {
  const lead = why === 'used' ? 'This sign-in address was already used or is more than 5 minutes old.' : 'This browser is not signed in to the agentbar proxy yet.';
  return `<!doctype html><meta charset="utf-8"><title>agentbar: sign in</title>
<body style="font:15px/1.5 sans-serif;max-width:40em;margin:3em auto;padding:0 1em">
<h1 style="font-size:20px">agentbar: sign in</h1>
<p>${lead}</p>
<p>Open the sign-in address that <code>agentbar proxy</code> printed when it started. It opens the app once, within 5 minutes,
and keeps this browser signed in. For a new address, run <code>agentbar sign-in</code> in another terminal.</p>`;
}
