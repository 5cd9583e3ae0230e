/**
 * The HTTP routes (hono), testable with `app.request()`. The WebSocket upgrade lives in
 * `server.ts`; both go through the same checks from `security.ts`.
 */
import { readFile, stat } from 'node:fs/promises';
import { Hono, type Context } from 'hono';
import type { AgentInfo } from '../shared/schemas.ts';
import { renderDemoPage } from './demo-page.ts';
import { checkAccess, type AccessPolicy } from './security.ts';

export interface HttpAppOptions {
  policy: AccessPolicy;
  agents: () => AgentInfo[];
  /** Where `toolbar.js` is read from (the Vite build output). */
  toolbarBundlePath: string;
  /** The ws URL the demo page's toolbar connects to. */
  wsUrl: () => string;
}

/** Headers for a page that holds the token: no framing, no caching, no referrer. */
const SECRET_PAGE_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

function refuse(c: Context, why: string) {
  return c.text(`Forbidden: ${why}`, 403);
}

/**
 * Builds the app.
 *
 * @example
 * const app = createHttpApp({ policy, agents: () => [], toolbarBundlePath: 'dist/toolbar.js', wsUrl: () => url });
 * const res = await app.request('/health', { headers: { host: 'localhost' } });
 */
export function createHttpApp(options: HttpAppOptions): Hono {
  const app = new Hono();
  let bundle: { mtimeMs: number; body: string } | null = null;

  // The Host check guards every route, including the public ones (DNS rebinding).
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    const why = checkAccess(options.policy, { host: c.req.header('host'), origin: c.req.header('origin') }, url, false);
    if (why) return refuse(c, why);
    await next();
  });

  const requireToken = async (c: Context, next: () => Promise<void>) => {
    const url = new URL(c.req.url);
    const why = checkAccess(
      options.policy,
      { host: c.req.header('host'), origin: c.req.header('origin'), authorization: c.req.header('authorization') },
      url,
      true,
    );
    if (why) return refuse(c, why);
    await next();
  };

  app.get('/health', (c) => c.json({ ok: true }));

  app.get('/agents', requireToken, (c) => c.json(options.agents()));

  app.get('/toolbar.js', async (c) => {
    try {
      const info = await stat(options.toolbarBundlePath);
      if (!bundle || bundle.mtimeMs !== info.mtimeMs) {
        bundle = { mtimeMs: info.mtimeMs, body: await readFile(options.toolbarBundlePath, 'utf8') };
      }
    } catch {
      return c.text('The toolbar bundle is not built yet: run `npm run build` in the agentbar folder.', 503);
    }
    return c.body(bundle.body, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  app.get('/', (c) =>
    c.html(renderDemoPage({ url: options.wsUrl(), token: options.policy.token }), 200, SECRET_PAGE_HEADERS),
  );

  // Browsers ask for it on every page; an empty answer keeps their consoles clean.
  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.notFound((c) => c.text('Not found', 404));
  return app;
}
