// agentbar/vite: injects the agentbar toolbar into the pages of a Vite dev server.
// Plain JavaScript on purpose: a user's vite.config loads it without a TypeScript loader.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

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
 * restarted agentbar server (new port, new token) is picked up with a plain reload.
 *
 * @example
 * // vite.config.ts
 * import agentbar from 'agentbar/vite';
 * export default { plugins: [agentbar()] };
 *
 * @param {{ dataDir?: string, connectionFile?: string }} [options]
 */
export default function agentbar(options = {}) {
  const file = options.connectionFile || connectionFilePath(options.dataDir);
  let warned = false;
  let logger = console;
  return {
    name: 'agentbar',
    apply: 'serve',
    configResolved(config) {
      logger = config.logger;
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
    transformIndexHtml() {
      const result = readConnection(file);
      if (!result.ok) {
        if (!warned) logger.warn(`[agentbar] toolbar not injected: ${result.reason}`);
        warned = true;
        return [];
      }
      warned = false;
      return renderTags(result.connection);
    },
  };
}
