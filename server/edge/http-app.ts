/**
 * The HTTP routes (hono), testable with `app.request()`. The WebSocket upgrade lives in
 * `server.ts`; both go through the same checks from `security.ts`.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Hono, type Context } from 'hono';
import type { AgentInfo } from '../../shared/schemas.ts';
import { renderDemoPage } from './demo-page.ts';
import { checkAccess, deriveBrowserKey, deriveSessionValue, hasSessionCookie, holdsToken, SESSION_COOKIE, type AccessPolicy } from './security.ts';
import { renderSignInPage } from './sign-in-page.ts';
import type { SignInLinks } from './sign-in-links.ts';

export interface HttpAppOptions {
  policy: AccessPolicy;
  agents: () => AgentInfo[];
  /** Where `toolbar.js` is read from (the Vite build output); LAZY_SCRIPTS, the grammars' `lang/` and `page-capture.js` (also inlined in the demo page) are beside it. */
  toolbarBundlePath: string;
  /** `http://127.0.0.1:PORT`, this server's own address, for the sign-in addresses it hands out. */
  httpUrl: () => string;
  /** One-time codes behind `/sign-in/CODE`. */
  signIn: SignInLinks;
  /** The page tools' MCP endpoint (`/mcp`, `/mcp/chats/CHAT`); absent: not served. */
  mcp?: (request: Request, chatId: string | null) => Promise<Response>;
  /**
   * Called with the request's bindings (`c.env`; under @hono/node-server, the Node request and
   * response) for a request that passed the token check and may take minutes to answer: the server
   * lifts its sockets' idle timeout for it (socket-guard.ts `allowSlowAnswer`).
   */
  allowSlowAnswer?: (bindings: unknown) => void;
}

/** Headers for the demo page and the sign-in: no framing, no caching, no referrer. */
const SECRET_PAGE_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The scripts the toolbar loads from beside its own: the panel (on idle or first open), the code
 * that draws the page, the page tools' code, and the page capture on a page that did not inline it.
 */
const LAZY_SCRIPTS = ['panel.js', 'screenshot.js', 'page-tools.js', 'page-capture.js'];

/** A grammar script's file name: what `vite.config.ts` writes to `dist/lang/`, and nothing else. */
const GRAMMAR_FILE = /^[a-z][a-z0-9-]{0,31}\.js$/;

const SCRIPT_HEADERS = {
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  // A page whose Trusted Types refuse the toolbar's policy gets the panel with import(), a CORS
  // request: these scripts hold no secret, any page may read them.
  'Access-Control-Allow-Origin': '*',
};

/**
 * Reads built scripts (the bundle, the grammars) once, and again only after a rebuild changed
 * their mtime. Rejects when the file is missing. Holds only files that exist.
 *
 * @example const scripts = createScriptCache(); const body = await scripts.read('dist/toolbar.js');
 */
function createScriptCache() {
  const files = new Map<string, { mtimeMs: number; body: string }>();
  return {
    async read(file: string): Promise<string> {
      const info = await stat(file);
      let cached = files.get(file);
      if (!cached || cached.mtimeMs !== info.mtimeMs) {
        cached = { mtimeMs: info.mtimeMs, body: await readFile(file, 'utf8') };
        files.set(file, cached);
      }
      return cached.body;
    },
  };
}

function refuse(c: Context, why: string) {
  return c.text(`Forbidden: ${why}`, 403);
}

/**
 * Builds the app.
 *
 * @example
 * const app = createHttpApp({ policy, agents: () => [], toolbarBundlePath: 'dist/toolbar.js',
 *   httpUrl: () => 'http://127.0.0.1:4477', signIn: createSignInLinks() });
 * const res = await app.request('/health', { headers: { host: 'localhost' } });
 */
export function createHttpApp(options: HttpAppOptions): Hono {
  const app = new Hono();
  const scripts = createScriptCache();

  // The Host check guards every route, including the public ones (DNS rebinding).
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    const why = checkAccess(options.policy, { host: c.req.header('host'), origin: c.req.header('origin') }, url, false);
    if (why) return refuse(c, why);
    await next();
  });

  const credentialsMissing = (c: Context) =>
    checkAccess(
      options.policy,
      { host: c.req.header('host'), origin: c.req.header('origin'), authorization: c.req.header('authorization'), cookie: c.req.header('cookie') },
      new URL(c.req.url),
      true,
    );
  const requireToken = async (c: Context, next: () => Promise<void>) => {
    const why = credentialsMissing(c);
    if (why) return refuse(c, why);
    await next();
  };
  // SameSite=Strict: no other site can make the browser send it; HttpOnly: no script reads it.
  const sessionCookie = `${SESSION_COOKIE}=${deriveSessionValue(options.policy.token)}; HttpOnly; SameSite=Strict; Path=/`;
  const showDemoPage = async (c: Context, browserKey: string | null, headers: Record<string, string>) => {
    const captureScript = await scripts.read(join(dirname(options.toolbarBundlePath), 'page-capture.js')).catch(() => null);
    return c.html(renderDemoPage({ browserKey }, { captureScript }), 200, headers);
  };
  // The one answer that holds the browser key: the page stores it and leaves the sign-in address.
  const signInBrowser = (c: Context) => showDemoPage(c, deriveBrowserKey(options.policy.token), { ...SECRET_PAGE_HEADERS, 'Set-Cookie': sessionCookie });

  app.get('/health', (c) => c.json({ ok: true }));

  app.get('/agents', requireToken, (c) => c.json(options.agents()));

  app.get('/toolbar.js', async (c) => {
    try {
      return c.body(await scripts.read(options.toolbarBundlePath), 200, SCRIPT_HEADERS);
    } catch {
      return c.text('The toolbar bundle is not built yet: run `npm run build` in the agentbar folder.', 503);
    }
  });

  // Public like the bundle: they hold no secret.
  for (const file of LAZY_SCRIPTS) {
    app.get(`/${file}`, async (c) => {
      try {
        return c.body(await scripts.read(join(dirname(options.toolbarBundlePath), file)), 200, SCRIPT_HEADERS);
      } catch {
        return c.text('Not found', 404);
      }
    });
  }

  // The highlighter's grammars, which the toolbar loads with a <script> the first time a code
  // block in that language shows. Public like the bundle: they hold no secret.
  app.get('/lang/:file', async (c) => {
    const file = c.req.param('file');
    if (!GRAMMAR_FILE.test(file)) return c.text('Not found', 404);
    try {
      return c.body(await scripts.read(join(dirname(options.toolbarBundlePath), 'lang', file)), 200, SCRIPT_HEADERS);
    } catch {
      return c.text('Not found', 404);
    }
  });

  // The token signs the browser in; the session cookie alone gets the page without any credential,
  // since browsers send that cookie to every port of the host.
  app.get('/', (c) => {
    if (holdsToken(options.policy, new URL(c.req.url), c.req.header('authorization'))) return signInBrowser(c);
    if (!hasSessionCookie(options.policy, c.req.header('cookie'))) return c.html(renderSignInPage('missing'), 403, SECRET_PAGE_HEADERS);
    return showDemoPage(c, null, SECRET_PAGE_HEADERS);
  });

  app.get('/sign-in/:code', (c) => {
    const code = c.req.param('code');
    // A HEAD (a link preview, a scanner) learns whether the code is live without using it up.
    if (c.req.method === 'HEAD') return c.body(null, options.signIn.isLive(code) ? 200 : 403, SECRET_PAGE_HEADERS);
    if (!options.signIn.redeem(code)) return c.html(renderSignInPage('used'), 403, SECRET_PAGE_HEADERS);
    return signInBrowser(c);
  });

  // Where the demo page sends a browser that has the cookie but not the key.
  app.get('/sign-in', (c) => c.html(renderSignInPage('no-key'), 403, SECRET_PAGE_HEADERS));

  /** `agentbar sign-in` asks here for a fresh address, with the token from the connection file. */
  app.post('/sign-in-links', requireToken, (c) => {
    const { code, expiresAt } = options.signIn.issue();
    return c.json({ url: `${options.httpUrl()}/sign-in/${code}`, expiresAt }, 200, { 'Cache-Control': 'no-store' });
  });

  const mcp = options.mcp;
  if (mcp) {
    // MCP clients send the token as `Authorization: Bearer`; the Host and Origin checks above apply.
    // A tools/call waits for the toolbar (up to minutes): no idle timeout may cut it off.
    app.all('/mcp', requireToken, (c) => {
      options.allowSlowAnswer?.(c.env);
      return mcp(c.req.raw, null);
    });
    app.all('/mcp/chats/:chatId', requireToken, (c) => {
      options.allowSlowAnswer?.(c.env);
      return mcp(c.req.raw, c.req.param('chatId') ?? null);
    });
  }

  // Browsers ask for it on every page; an empty answer keeps their consoles clean.
  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.notFound((c) => c.text('Not found', 404));
  return app;
}
