import { describe, expect, it } from 'vitest';
import { installPageCapture, PAGE_CAPTURE_KEY, type CaptureWindow } from './page-capture.ts';
import { bindPageLog, isOwnRequest } from './page-log.ts';
import { readPageLog, type PageLogSnapshot } from './read-page-log.ts';

const SOCKET = 'ws://127.0.0.1:4477/ws';

function createWindow(fetchAnswer: (input: string) => Promise<Response> = async () => new Response('', { status: 404 })) {
  return {
    console: { log: (..._args: unknown[]) => {} },
    addEventListener: () => {},
    fetch: fetchAnswer,
    location: { href: 'http://localhost:5173/' },
  } satisfies CaptureWindow;
}

/** What the toolbar does on a page without the early script: loads the capture (page-capture-loader.ts). */
function startCaptureOn(win: CaptureWindow) {
  let started = false;
  const start = async () => {
    started = true;
    installPageCapture(win, 'toolbar');
    return null;
  };
  return { start, started: () => started };
}

describe('bindPageLog', () => {
  it('takes over the capture the early script started, with what it recorded before the toolbar', () => {
    const win = createWindow();
    installPageCapture(win, 'page');
    win.console.log('before the toolbar');
    const capture = startCaptureOn(win);
    const log = bindPageLog(win, SOCKET, capture.start);
    win.console.log('after');
    expect(capture.started()).toBe(false);
    expect(readPageLog(log)).toMatchObject({
      startedBy: 'page',
      console: { entries: [{ level: 'log', text: 'before the toolbar' }, { level: 'log', text: 'after' }], dropped: 0 },
    });
  });

  it('has the capture started on a page without the early script, and says so', async () => {
    const win = createWindow();
    const log = bindPageLog(win, SOCKET, startCaptureOn(win).start);
    await Promise.resolve();
    win.console.log('hello');
    expect(readPageLog(log)).toMatchObject({ startedBy: 'toolbar', console: { entries: [{ text: 'hello' }] } });
  });

  it('says why nothing is captured while the capture has not started, or when it could not', async () => {
    const win = createWindow();
    let fail: (why: string) => void = () => {};
    const log = bindPageLog(win, SOCKET, () => new Promise<string>((resolve) => (fail = resolve)));
    expect(readPageLog(log)).toMatch(/^Nothing was captured yet: the page capture is still starting/);
    fail('Nothing was captured on this page: page-capture.js could not be loaded');
    await Promise.resolve();
    expect(readPageLog(log)).toBe('Nothing was captured on this page: page-capture.js could not be loaded');
  });

  it('leaves out the toolbar’s own requests to the agent server', async () => {
    const win = createWindow(async () => Promise.reject(new TypeError('Failed to fetch')));
    const log = bindPageLog(win, SOCKET, startCaptureOn(win).start);
    await win.fetch('http://127.0.0.1:4477/health').catch(() => {});
    await win.fetch('http://127.0.0.1:4477/api/orders').catch(() => {});
    expect((readPageLog(log) as PageLogSnapshot).network.entries.map((e) => e.url)).toEqual(['http://127.0.0.1:4477/api/orders']);
  });

  it('drops entries the page broke, counting them, and answers null when the page replaced the capture', async () => {
    const win = createWindow();
    const log = bindPageLog(win, SOCKET, startCaptureOn(win).start);
    await Promise.resolve();
    win.console.log('kept');
    const capture: unknown = Reflect.get(win, PAGE_CAPTURE_KEY);
    const buffers = Reflect.get(capture as object, 'console') as { entries: unknown[] };
    buffers.entries.push({ level: 'shout', text: 1 }, 'junk');
    expect((readPageLog(log) as PageLogSnapshot).console).toEqual({ entries: [{ level: 'log', text: 'kept', time: expect.any(Number) }], dropped: 2 });
    Object.defineProperty(win, PAGE_CAPTURE_KEY, { value: { version: 1 } });
    expect(readPageLog(log)).toBeNull();
  });
});

describe('isOwnRequest', () => {
  it('is the agent server’s health probe, nothing else', () => {
    expect(isOwnRequest('http://127.0.0.1:4477/health', SOCKET)).toBe(true);
    expect(isOwnRequest('https://127.0.0.1:4477/health', 'wss://127.0.0.1:4477/ws')).toBe(true);
    expect(isOwnRequest('http://127.0.0.1:4478/health', SOCKET)).toBe(false);
    expect(isOwnRequest('http://127.0.0.1:4477/', SOCKET)).toBe(false);
    expect(isOwnRequest('http://127.0.0.1:4477/health', 'not a url')).toBe(false);
  });
});
