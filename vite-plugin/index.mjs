// agentbar/vite: injects the agentbar toolbar into the pages of a Vite dev server.
// Plain JavaScript on purpose: a user's vite.config loads it without a TypeScript loader.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { SOURCE_FILE_PATTERN, createSourceAttributesTransform } from './source-attributes.mjs';

/** Where `agentbar serve` writes its connection file for a data directory. */
export function connectionFilePath(dataDir) {
  const dir = dataDir || process.env.AGENTBAR_DATA_DIR || path.join(homedir(), '.agentbar');
  return path.join(dir, 'server.json');
}

/**
 * Reads the running server's connection file; returns null (with the reason) when there is none.
 * @returns {{ ok: true, connection: { url: string, http: string, token: string } } | { ok: false, reason: string }}
 */
export function readConnection(file) {
  let raw;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return { ok: false, reason: `no agentbar server found (${file} is missing): start one with \`npx agentbar serve\`` };
  }
  try {
    const c = JSON.parse(raw);
    if (typeof c.url !== 'string' || typeof c.http !== 'string' || typeof c.token !== 'string') throw new Error('missing fields');
    return { ok: true, connection: { url: c.url, http: c.http, token: c.token } };
  } catch (error) {
    return { ok: false, reason: `${file} is not a valid agentbar connection file (${error.message})` };
  }
}

/** The early page capture, built beside the toolbar bundle in the agentbar package. */
const CAPTURE_SCRIPT = new URL('../dist/page-capture.js', import.meta.url);

/**
 * The page capture's source (dist/page-capture.js): it records the page's console messages, errors
 * and failed requests from its start, for the page tools. Null when it is not built, or holds text
 * that would end an inline script early.
 * @returns {string | null}
 */
export function readCaptureScript(file = CAPTURE_SCRIPT) {
  try {
    const code = readFileSync(file, 'utf8').trim();
    return code && !/<\/script|<!--/i.test(code) ? code : null;
  } catch {
    return null;
  }
}

/**
 * Puts the capture script first in `<head>`, before any script of the page: right after the page's
 * `<meta charset>` when nothing runs before it (browsers look for that tag in the first 1024 bytes,
 * and Vite sends no charset), else right after `<head>`. Null when the page has no `<head>` tag.
 *
 * @example placeCaptureScript('<head><meta charset="utf-8"><title>A</title>', 'x()')
 * // '<head><meta charset="utf-8"><script>x()</script><title>A</title>'
 */
export function placeCaptureScript(html, script) {
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  if (!head) return null;
  let at = head.index + head[0].length;
  const headEnd = html.slice(at).search(/<\/head|<body/i);
  const charset = /<meta\s[^>]*charset[^>]*>/i.exec(html.slice(at, headEnd < 0 ? undefined : at + headEnd));
  if (charset && !/<script/i.test(html.slice(at, at + charset.index))) at += charset.index + charset[0].length;
  return `${html.slice(0, at)}<script>${script}</script>${html.slice(at)}`;
}

/** The tags that load the toolbar; `<` is escaped so no value can end the script early. */
export function renderTags(connection) {
  const json = JSON.stringify({ url: connection.url, token: connection.token }).replace(/</g, '\\u003c');
  const src = `${connection.http.replace(/\/$/, '')}/toolbar.js`;
  return [
    { tag: 'script', children: `window.__AGENTBAR__ = ${json};`, injectTo: 'body' },
    { tag: 'script', attrs: { src, defer: true }, injectTo: 'body' },
  ];
}

/**
 * The Vite plugin. Dev server only; the connection file is read on every page load, so a
 * restarted agentbar server (new port, new token) is picked up with a plain reload. It also marks
 * each element a project file writes with its source (`sourceAttributes`, on by default): it runs
 * before other plugins so it reads the files as written, and not under Vitest (mode `test`), whose
 * snapshots would change.
 *
 * @example
 * // vite.config.ts
 * import agentbar from 'agentbar/vite';
 * export default { plugins: [agentbar()] };
 *
 * @param {{ dataDir?: string, connectionFile?: string, sourceAttributes?: boolean }} [options]
 */
export default function agentbar(options = {}) {
  const file = options.connectionFile || connectionFilePath(options.dataDir);
  let warned = false;
  let logger = console;
  let markSources = null;
  return {
    name: 'agentbar',
    apply: 'serve',
    enforce: 'pre',
    configResolved(config) {
      logger = config.logger;
      if (options.sourceAttributes !== false && config.mode !== 'test') {
        markSources = createSourceAttributesTransform({ root: config.root, warn: (message) => logger.warn(message) });
      }
    },
    transform: {
      order: 'pre',
      filter: { id: SOURCE_FILE_PATTERN },
      handler(code, id) {
        return markSources ? markSources(code, id) : null;
      },
    },
    // Pages that hold the token must not be framed by another site (PROTOCOL §1): a framing page
    // could trick a click on Approve.
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const accept = req.headers.accept || '';
        if (req.method === 'GET' && (accept.includes('text/html') || req.url === '/' || /\.html?(\?|$)/.test(req.url || ''))) {
          res.setHeader('X-Frame-Options', 'DENY');
          res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
        }
        next();
      });
    },
    transformIndexHtml(html) {
      const result = readConnection(file);
      if (!result.ok) {
        if (!warned) logger.warn(`[agentbar] toolbar not injected: ${result.reason}`);
        warned = true;
        return [];
      }
      warned = false;
      const tags = renderTags(result.connection);
      const capture = readCaptureScript();
      if (!capture) return tags;
      const placed = placeCaptureScript(html, capture);
      return placed ? { html: placed, tags } : [{ tag: 'script', children: capture, injectTo: 'head-prepend' }, ...tags];
    },
  };
}
