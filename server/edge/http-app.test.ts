import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../shared/schemas.ts';
import { createHttpApp } from './http-app.ts';
import { deriveBrowserKey, deriveSessionValue } from './security.ts';
import { createSignInLinks, type SignInLinks } from './sign-in-links.ts';

const PORT = 4477;
const TOKEN = 'tok_0123456789abcdefghijklmnop';
const HOST = `127.0.0.1:${PORT}`;
const KEY = deriveBrowserKey(TOKEN);
const COOKIE = `agentbar_session=${deriveSessionValue(TOKEN)}`;

const AGENTS: AgentInfo[] = [
  { id: 'wisp/concierge', description: 'Answers', implemented: true, tools: [{ name: 'get_page_info', type: 'deterministic' }], workflows: [] },
  { id: 'wisp/later', description: 'Not yet', implemented: false, tools: [], workflows: ['review'] },
];

let dir: string;
let bundlePath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentbar-http-'));
  bundlePath = join(dir, 'toolbar.js');
  writeFileSync(bundlePath, 'console.log("toolbar bundle");\n');
  mkdirSync(join(dir, 'lang'));
  writeFileSync(join(dir, 'lang', 'python.js'), 'register("python");\n');
  writeFileSync(join(dir, 'secret.js'), 'not a grammar');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function makeApp(options: { bundle?: string; allowOrigins?: string[]; signIn?: SignInLinks } = {}) {
  return createHttpApp({
    signIn: options.signIn ?? createSignInLinks(),
    policy: { port: () => PORT, token: TOKEN, allowOrigins: options.allowOrigins ?? [] },
    agents: () => AGENTS,
    toolbarBundlePath: options.bundle ?? bundlePath,
    httpUrl: () => `http://${HOST}`,
  });
}

function get(path: string, headers: Record<string, string> = {}, app = makeApp()) {
  return app.request(path, { headers: { host: HOST, ...headers } });
}

describe('GET /health', () => {
  it('answers 200 without a token', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('GET /agents', () => {
  it('refuses a request without a token', async () => {
    const res = await get('/agents');
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/token/i);
  });

  it('refuses a wrong token', async () => {
    expect((await get('/agents?token=wrong-token-value-000000')).status).toBe(403);
    expect((await get('/agents', { authorization: 'Bearer wrong-token-value-000000' })).status).toBe(403);
  });

  it('answers the AgentInfo list with ?token=', async () => {
    const res = await get(`/agents?token=${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual(AGENTS);
  });

  it('takes the browser key only together with the session cookie, and the cookie alone not at all', async () => {
    expect((await get('/agents', { cookie: COOKIE })).status).toBe(403);
    expect((await get(`/agents?token=${KEY}`)).status).toBe(403);
    expect((await get(`/agents?token=${KEY}`, { cookie: COOKIE })).status).toBe(200);
    expect((await get('/agents', { authorization: `Bearer ${KEY}`, cookie: COOKIE })).status).toBe(200);
  });

  it('answers the AgentInfo list with Authorization: Bearer', async () => {
    const res = await get('/agents', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(AGENTS);
  });

  it('accepts an allowed browser origin and refuses a foreign one', async () => {
    expect((await get(`/agents?token=${TOKEN}`, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await get(`/agents?token=${TOKEN}`, { origin: 'https://evil.com' })).status).toBe(403);
  });

  it('accepts an origin given with --allow-origin', async () => {
    const app = makeApp({ allowOrigins: ['https://dev.example.com'] });
    expect((await get(`/agents?token=${TOKEN}`, { origin: 'https://dev.example.com' }, app)).status).toBe(200);
  });

  it('sends no permissive CORS header', async () => {
    const res = await get(`/agents?token=${TOKEN}`, { origin: 'http://localhost:5173' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the Host check', () => {
  const routes = ['/health', '/agents', `/agents?token=${TOKEN}`, '/toolbar.js', '/', '/nope'];

  it.each(routes)('refuses a foreign Host on %s', async (path) => {
    for (const host of ['evil.com', 'localhost.evil.com', `127.0.0.1.nip.io:${PORT}`, 'localhost:1']) {
      const res = await get(path, { host });
      expect(res.status, `${host} ${path}`).toBe(403);
      expect(await res.text()).toMatch(/Host not allowed/);
    }
  });

  it('refuses a request with no Host header', async () => {
    const res = await makeApp().request('/health');
    expect(res.status).toBe(403);
  });

  it.each(['localhost', `localhost:${PORT}`, '[::1]', `[::1]:${PORT}`, '127.0.0.1'])('accepts the loopback Host %s', async (host) => {
    expect((await get('/health', { host })).status).toBe(200);
  });

  it.each(routes)('refuses Origin: null on %s', async (path) => {
    const res = await get(path, { origin: 'null' });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/Origin not allowed/);
  });

  it('does not leak the token in a refusal', async () => {
    const res = await get('/', { host: 'evil.com' });
    expect(await res.text()).not.toContain(TOKEN);
  });
});

describe('GET / (the demo page)', () => {
  it('holds nothing secret for a request without credentials, and says how to sign in', async () => {
    const res = await get('/');
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).not.toContain(TOKEN);
    expect(html).not.toContain(KEY);
    expect(html).not.toContain(deriveSessionValue(TOKEN));
    expect(html).not.toContain('toolbar.js');
    expect(html).toContain('agentbar sign-in');
  });

  it('refuses a wrong cookie or a wrong token', async () => {
    expect((await get('/', { cookie: 'agentbar_session=forged-value-0000000000000' })).status).toBe(403);
    expect((await get('/', { cookie: `agentbar_session=${TOKEN}` })).status).toBe(403);
    expect((await get('/?token=wrong-token-value-000000')).status).toBe(403);
    // The browser key is no token: it does not sign in.
    expect((await get(`/?token=${KEY}`)).status).toBe(403);
  });

  it('gives a browser holding only the session cookie the page with neither the token nor the browser key', async () => {
    const res = await get('/', { cookie: `theme=dark; ${COOKIE}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('set-cookie')).toBeNull();
    const html = await res.text();
    expect(html).not.toContain(TOKEN);
    expect(html).not.toContain(KEY);
    expect(html).toContain('<script src="/toolbar.js" defer></script>');
  });

  it('inlines the page capture built beside the bundle, and goes without it when it is not built', async () => {
    const built = mkdtempSync(join(tmpdir(), 'agentbar-capture-'));
    try {
      writeFileSync(join(built, 'toolbar.js'), 'toolbar();');
      writeFileSync(join(built, 'page-capture.js'), 'capture();');
      const withCapture = await (await get('/', { cookie: COOKIE }, makeApp({ bundle: join(built, 'toolbar.js') }))).text();
      expect(withCapture).toContain('<script>capture();</script>');
      expect(await (await get('/', { cookie: COOKIE })).text()).not.toContain('capture()');
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  it('signs in a request that gives the token: the cookie, and the page with the browser key to store, never the token', async () => {
    for (const res of [await get(`/?token=${TOKEN}`), await get('/', { authorization: `Bearer ${TOKEN}` })]) {
      expect(res.status).toBe(200);
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).toContain(COOKIE);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).not.toContain(TOKEN);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain(JSON.stringify(KEY));
      expect(html).not.toContain(TOKEN);
    }
  });

  it('forbids framing and caching and sends no CORS header', async () => {
    const res = await get('/', { origin: 'http://localhost:5173', cookie: COOKIE });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the one-time sign-in address', () => {
  it('signs the browser in once, then is used up', async () => {
    const signIn = createSignInLinks();
    const app = makeApp({ signIn });
    const { code } = signIn.issue();
    const first = await get(`/sign-in/${code}`, {}, app);
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(page).toContain(JSON.stringify(KEY));
    expect(page).not.toContain(TOKEN);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await get('/', { cookie }, app)).status).toBe(200);

    const again = await get(`/sign-in/${code}`, {}, app);
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toMatch(/already used or has expired/);
  });

  it('refuses an expired or unknown code', async () => {
    let now = 1_000;
    const signIn = createSignInLinks({ ttlMs: 60_000, now: () => now });
    const app = makeApp({ signIn });
    const { code } = signIn.issue();
    now += 60_000;
    expect((await get(`/sign-in/${code}`, {}, app)).status).toBe(403);
    expect((await get('/sign-in/made-up-code', {}, app)).status).toBe(403);
  });

  it('keeps the Host check in front of the sign-in', async () => {
    const signIn = createSignInLinks();
    const app = makeApp({ signIn });
    const { code } = signIn.issue();
    expect((await get(`/sign-in/${code}`, { host: 'evil.com' }, app)).status).toBe(403);
    // The refused attempt did not use the code up.
    expect((await get(`/sign-in/${code}`, {}, app)).status).toBe(200);
  });

  it('answers HEAD without using the code up', async () => {
    const signIn = createSignInLinks();
    const app = makeApp({ signIn });
    const { code } = signIn.issue();
    const head = (path: string) => app.request(path, { method: 'HEAD', headers: { host: HOST } });
    const first = await head(`/sign-in/${code}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(await first.text()).toBe('');
    expect((await head(`/sign-in/${code}`)).status).toBe(200);
    expect((await get(`/sign-in/${code}`, {}, app)).status).toBe(200);
    expect((await head(`/sign-in/${code}`)).status).toBe(403);
    expect((await head('/sign-in/made-up-code')).status).toBe(403);
  });

  it('tells a browser that has the cookie but lost the key how to sign in again', async () => {
    const res = await get('/sign-in', { cookie: COOKIE });
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toMatch(/keeps no key for agentbar/);
    expect(html).toContain('agentbar sign-in');
    expect(html).not.toContain(KEY);
  });

  it('issues a new address to a client holding the token, and to nobody else', async () => {
    const app = makeApp();
    const post = (headers: Record<string, string>) => app.request('/sign-in-links', { method: 'POST', headers: { host: HOST, ...headers } });
    expect((await post({})).status).toBe(403);
    const res = await post({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${PORT}/sign-in/[\\w-]{32}$`));
    expect(url).not.toContain(TOKEN);
    expect((await get(new URL(url).pathname, {}, app)).status).toBe(200);
  });

  it('issues no address to the session cookie alone', async () => {
    const res = await makeApp().request('/sign-in-links', { method: 'POST', headers: { host: HOST, cookie: COOKIE } });
    expect(res.status).toBe(403);
  });
});

describe('GET /toolbar.js', () => {
  it('serves the bundle as JavaScript without a token', async () => {
    const res = await get('/toolbar.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await res.text()).toBe('console.log("toolbar bundle");\n');
  });

  it('holds no secret', async () => {
    const res = await get('/toolbar.js');
    expect(await res.text()).not.toContain(TOKEN);
  });

  it('serves the new bundle after a rebuild', async () => {
    const path = join(dir, 'rebuilt.js');
    writeFileSync(path, 'one();');
    const app = makeApp({ bundle: path });
    expect(await (await get('/toolbar.js', {}, app)).text()).toBe('one();');
    writeFileSync(path, 'two(); // longer, so the file differs even if mtime does not');
    // A distinct mtime, so the test does not depend on the clock's resolution.
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    expect(await (await get('/toolbar.js', {}, app)).text()).toMatch(/^two\(\);/);
  });

  it('answers 503 with a clear message when the bundle is missing', async () => {
    const app = makeApp({ bundle: join(dir, 'missing', 'toolbar.js') });
    const res = await get('/toolbar.js', {}, app);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/not built yet.*npm run build/);
  });
});

describe('GET /lang/NAME.js', () => {
  it('serves a highlighter grammar beside the bundle as JavaScript, without a token', async () => {
    const res = await get('/lang/python.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('register("python");\n');
  });

  it('answers 404 for a grammar that is not built, and for anything that is not a grammar file name', async () => {
    for (const route of ['/lang/cobol.js', '/lang/..%2Fsecret.js', '/lang/%2E%2E%2Fsecret.js', '/lang/python.json', '/lang/Python.js', '/lang/.js', '/lang/']) {
      const res = await get(route);
      expect(res.status, route).toBe(404);
      expect(await res.text(), route).not.toContain('not a grammar');
    }
  });
});

describe('GET /panel.js, /screenshot.js, /page-tools.js, /page-capture.js', () => {
  it('serves the scripts the toolbar loads on first use, beside the bundle, as JavaScript, without a token', async () => {
    const built = mkdtempSync(join(tmpdir(), 'agentbar-lazy-'));
    try {
      const app = makeApp({ bundle: join(built, 'toolbar.js') });
      for (const file of ['panel.js', 'screenshot.js', 'page-tools.js', 'page-capture.js']) {
        writeFileSync(join(built, file), `${file}();\n`);
        const res = await get(`/${file}`, {}, app);
        expect([res.status, res.headers.get('content-type'), await res.text()], file).toEqual([200, 'text/javascript; charset=utf-8', `${file}();\n`]);
        // Readable by a page's import(), the panel's way in where Trusted Types refuse the toolbar's policy.
        expect(res.headers.get('access-control-allow-origin'), file).toBe('*');
      }
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  it('answers 404 while they are not built', async () => {
    for (const route of ['/panel.js', '/screenshot.js', '/page-tools.js', '/page-capture.js']) {
      const res = await get(route, {}, makeApp({ bundle: join(dir, 'lang', 'toolbar.js') }));
      expect(res.status, route).toBe(404);
    }
  });
});

describe('unknown routes', () => {
  it('answer 404', async () => {
    const res = await get('/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });

  it('answer 404 to another method on a known path', async () => {
    const res = await makeApp().request('/health', { method: 'POST', headers: { host: HOST } });
    expect(res.status).toBe(404);
  });
});
