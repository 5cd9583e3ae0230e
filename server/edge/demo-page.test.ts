import { describe, expect, it } from 'vitest';
import { renderDemoPage, renderToolbarTags } from './demo-page.ts';

/** The object the first script assigns to window.__AGENTBAR__, read back as a browser would. */
function readConfig(html: string): unknown {
  const m = /<script>window\.__AGENTBAR__ = (.*?);<\/script>/s.exec(html);
  if (!m) throw new Error('no config script');
  return JSON.parse(m[1]!);
}

describe('renderToolbarTags', () => {
  it('embeds the url and the token and loads the bundle', () => {
    const html = renderToolbarTags({ url: 'ws://127.0.0.1:4477/ws', token: 'abc' });
    expect(readConfig(html)).toEqual({ url: 'ws://127.0.0.1:4477/ws', token: 'abc' });
    expect(html).toContain('<script src="/toolbar.js" defer></script>');
  });

  it('loads the bundle from the given src', () => {
    expect(renderToolbarTags({ url: 'u', token: 't' }, '/@agentbar/toolbar.js')).toContain('src="/@agentbar/toolbar.js"');
  });

  it('cannot be broken out of by a value holding </script>', () => {
    const config = {
      url: 'ws://x/</script><script>alert(1)</script>',
      token: '</SCRIPT><img src=x onerror=alert(2)><!--',
    };
    const html = renderToolbarTags(config);
    // Only the two closing tags the function writes itself.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    // And the values still arrive intact.
    expect(readConfig(html)).toEqual(config);
  });

  it('keeps quotes and backslashes as data', () => {
    const config = { url: 'ws://a/"b"', token: 'c\\"; alert(1); "' };
    expect(readConfig(renderToolbarTags(config))).toEqual(config);
  });
});

describe('renderDemoPage', () => {
  it('is a full page with the toolbar injected once', () => {
    const html = renderDemoPage({ url: 'ws://127.0.0.1:1/ws', token: 'tok' });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/window\.__AGENTBAR__/g)).toHaveLength(1);
    expect(readConfig(html)).toEqual({ url: 'ws://127.0.0.1:1/ws', token: 'tok' });
  });

  it('runs the page capture before any other script, and leaves out one that could end its tag', () => {
    const html = renderDemoPage({ url: 'u', token: 't' }, { captureScript: 'capture();' });
    expect(html.indexOf('<script>capture();</script>')).toBeGreaterThan(html.indexOf('<meta charset="utf-8">'));
    expect(html.indexOf('<script')).toBe(html.indexOf('<script>capture();</script>'));
    expect(renderDemoPage({ url: 'u', token: 't' }, { captureScript: 'x("</script>")' })).not.toContain('x(');
  });

  it('escapes a hostile token in the page as well', () => {
    const html = renderDemoPage({ url: 'u', token: '</script><script>alert(1)</script>' });
    expect(html).not.toContain('<script>alert(1)');
  });
});
