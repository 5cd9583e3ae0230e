import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { placeCaptureScript, readCaptureScript } from './index.mjs';

describe('placeCaptureScript', () => {
  it('puts the capture right after <meta charset>, before any script of the page', () => {
    const html = '<!doctype html><html><head><meta charset="UTF-8" /><title>App</title><script>window.early = 1</script></head><body></body></html>';
    expect(placeCaptureScript(html, 'capture()')).toBe(
      '<!doctype html><html><head><meta charset="UTF-8" /><script>capture()</script><title>App</title><script>window.early = 1</script></head><body></body></html>',
    );
  });

  it('goes right after <head> when a script comes before the charset, or there is no charset', () => {
    expect(placeCaptureScript('<head lang="en"><script>a()</script><meta charset="utf-8"></head>', 'c()')).toBe(
      '<head lang="en"><script>c()</script><script>a()</script><meta charset="utf-8"></head>',
    );
    expect(placeCaptureScript('<html><head><title>A</title></head><body><meta charset="utf-8"></body>', 'c()')).toBe(
      '<html><head><script>c()</script><title>A</title></head><body><meta charset="utf-8"></body>',
    );
  });

  it('gives up on a page without <head> (Vite then prepends it as a tag), and is not fooled by <header>', () => {
    expect(placeCaptureScript('<body><header>Hi</header></body>', 'c()')).toBeNull();
  });
});

describe('readCaptureScript', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the built script, and refuses one missing or able to end its <script> early', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agentbar-capture-'));
    const file = path.join(dir, 'page-capture.js');
    expect(readCaptureScript(file)).toBeNull();
    writeFileSync(file, '(()=>{capture()})();\n');
    expect(readCaptureScript(file)).toBe('(()=>{capture()})();');
    writeFileSync(file, 'x("</script><img src=x onerror=alert(1)>")');
    expect(readCaptureScript(file)).toBeNull();
  });
});
