import { describe, expect, it } from 'vitest';
import { BROWSER_KEY_STORAGE, renderDemoPage, renderToolbarBootstrap } from './demo-page.ts';

interface Browser {
  /** What the page's storage holds under the key's name; `null`: nothing; `'refused'`: storage throws, as with site data blocked. */
  stored: string | null | 'refused';
  address: string;
}

/**
 * Runs the bootstrap script of `html` as a browser at `browser.address` would, and reports what it
 * left: the toolbar's config, the stored key, the address bar, and where it sent the browser.
 */
function runBootstrap(html: string, browser: Browser) {
  const m = /<script>(\(function \(\) \{[^]*?\}\)\(\);)<\/script>/.exec(html);
  if (!m) throw new Error('no bootstrap script');
  const storage = new Map<string, string>();
  if (typeof browser.stored === 'string' && browser.stored !== 'refused') storage.set(BROWSER_KEY_STORAGE, browser.stored);
  const refuse = () => {
    if (browser.stored === 'refused') throw new Error('SecurityError: site data is blocked');
  };
  const localStorage = {
    getItem: (name: string) => (refuse(), storage.get(name) ?? null),
    setItem: (name: string, value: string) => (refuse(), void storage.set(name, value)),
  };
  let address = browser.address;
  const wentTo: string[] = [];
  const history = { replaceState: (_state: unknown, _title: string, url: string) => (address = new URL(url, address).href) };
  const { protocol, host } = new URL(browser.address);
  const location = { protocol, host, replace: (url: string) => void wentTo.push(url) };
  const window: { __AGENTBAR__?: unknown } = {};
  new Function('window', 'localStorage', 'history', 'location', m[1]!)(window, localStorage, history, location);
  return { config: window.__AGENTBAR__, stored: storage.get(BROWSER_KEY_STORAGE) ?? null, address, wentTo };
}

describe('renderToolbarBootstrap', () => {
  it('stores the key given at sign-in, leaves the sign-in address, and connects to the page host with it', () => {
    const after = runBootstrap(renderToolbarBootstrap('key-1'), { stored: null, address: 'http://127.0.0.1:4477/sign-in/abc' });
    expect(after).toEqual({ config: { url: 'ws://127.0.0.1:4477/ws', token: 'key-1' }, stored: 'key-1', address: 'http://127.0.0.1:4477/', wentTo: [] });
  });

  it('replaces a key stored before', () => {
    expect(runBootstrap(renderToolbarBootstrap('key-2'), { stored: 'key-1', address: 'http://localhost:4477/?token=t' }).stored).toBe('key-2');
  });

  it('reads the stored key on a later load, which holds none', () => {
    const html = renderToolbarBootstrap(null);
    const after = runBootstrap(html, { stored: 'key-1', address: 'https://localhost:4477/' });
    expect(after).toEqual({ config: { url: 'wss://localhost:4477/ws', token: 'key-1' }, stored: 'key-1', address: 'https://localhost:4477/', wentTo: [] });
  });

  it('sends a browser without the key to /sign-in and connects nothing', () => {
    for (const stored of [null, 'refused'] as const) {
      const after = runBootstrap(renderToolbarBootstrap(null), { stored, address: 'http://127.0.0.1:4477/' });
      expect(after.config).toBeUndefined();
      expect(after.wentTo).toEqual(['/sign-in']);
    }
  });

  it('still connects the page that signs in when the browser refuses to store the key', () => {
    const after = runBootstrap(renderToolbarBootstrap('key-1'), { stored: 'refused', address: 'http://127.0.0.1:4477/sign-in/abc' });
    expect(after.config).toEqual({ url: 'ws://127.0.0.1:4477/ws', token: 'key-1' });
  });

  it('loads the bundle after the config', () => {
    const html = renderToolbarBootstrap(null);
    expect(html.endsWith('\n<script src="/toolbar.js" defer></script>')).toBe(true);
  });

  it('cannot be broken out of by a key holding </script>, and keeps it intact', () => {
    const key = '</SCRIPT><img src=x onerror=alert(2)><!--"\\';
    const html = renderToolbarBootstrap(key);
    // Only the two closing tags the function writes itself.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    expect(runBootstrap(html, { stored: null, address: 'http://127.0.0.1:4477/' }).stored).toBe(key);
  });
});

describe('renderDemoPage', () => {
  it('is a full page with the toolbar injected once', () => {
    const html = renderDemoPage({ browserKey: null });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/window\.__AGENTBAR__/g)).toHaveLength(1);
    expect(html.match(/src="\/toolbar\.js"/g)).toHaveLength(1);
    expect(runBootstrap(html, { stored: 'key-1', address: 'http://127.0.0.1:1/' }).config).toEqual({ url: 'ws://127.0.0.1:1/ws', token: 'key-1' });
  });

  it('holds the browser key only when given one', () => {
    expect(renderDemoPage({ browserKey: 'key-1' })).toContain('"key-1"');
    expect(renderDemoPage({ browserKey: null })).not.toContain('key-1');
  });

  it('runs the page capture before any other script, and leaves out one that could end its tag', () => {
    const html = renderDemoPage({ browserKey: null }, { captureScript: 'capture();' });
    expect(html.indexOf('<script>capture();</script>')).toBeGreaterThan(html.indexOf('<meta charset="utf-8">'));
    expect(html.indexOf('<script')).toBe(html.indexOf('<script>capture();</script>'));
    expect(renderDemoPage({ browserKey: null }, { captureScript: 'x("</script>")' })).not.toContain('x(');
  });
});
