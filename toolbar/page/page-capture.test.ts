import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { installPageCapture, PAGE_CAPTURE_KEY, PAGE_CAPTURE_REGISTER, type CaptureWindow, type PageCapture } from './page-capture.ts';
import { buildPageCaptureScript, PAGE_CAPTURE_SOURCE_URL } from './page-capture-script.ts';

/** A request object with the XMLHttpRequest surface the capture uses; `finish` plays its end. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  status = 0;
  statusText = '';
  private listeners = new Map<string, (() => void)[]>();
  open(_method: string, _url: string | URL): string {
    return 'opened';
  }
  send(_body?: unknown): void {
    FakeXhr.sent.push(this);
  }
  addEventListener(type: string, listener: () => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  listenerCount(): number {
    return [...this.listeners.values()].reduce((sum, list) => sum + list.length, 0);
  }
  finish(status: number, events: string[] = ['load']): void {
    this.status = status;
    this.statusText = status === 404 ? 'Not Found' : '';
    for (const type of [...events, 'loadend']) for (const l of this.listeners.get(type) ?? []) l();
  }
}

function createWindow(fetchAnswer: (input: unknown, init?: unknown) => Promise<Response> = async () => new Response('ok')) {
  const listeners = new Map<string, ((event: unknown) => void)[]>();
  const printed: { level: string; args: unknown[]; self: unknown }[] = [];
  const consoleMethods = Object.fromEntries(
    ['log', 'info', 'warn', 'error', 'debug'].map((level) => [
      level,
      function (this: unknown, ...args: unknown[]) {
        printed.push({ level, args, self: this });
        return `returned by ${level}`;
      },
    ]),
  );
  let clock = 1000;
  const win = {
    console: consoleMethods,
    addEventListener(type: string, listener: (event: unknown) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    fetch: fetchAnswer,
    XMLHttpRequest: class extends FakeXhr {},
    location: { href: 'http://localhost:5173/app' },
    performance: { now: () => (clock += 25) },
  } satisfies CaptureWindow;
  const dispatch = (type: string, event: unknown) => {
    for (const l of listeners.get(type) ?? []) l(event);
  };
  const capture = () => Reflect.get(win, PAGE_CAPTURE_KEY) as PageCapture;
  return { win, printed, dispatch, capture };
}

describe('installPageCapture', () => {
  it('records console calls and still prints them, with the same this, arguments and return value', () => {
    const { win, printed, capture } = createWindow();
    installPageCapture(win, 'page');
    const c = win.console as Record<string, (...args: unknown[]) => unknown>;
    expect(c.log!('saved %d items', 3, { id: 1 })).toBe('returned by log');
    expect(c.warn!.call(win.console, 'careful')).toBe('returned by warn');
    c.error!(new TypeError('bad'));
    expect(printed.map((p) => p.level)).toEqual(['log', 'warn', 'error']);
    expect(printed[0]!.args).toEqual(['saved %d items', 3, { id: 1 }]);
    expect(printed[1]!.self).toBe(win.console);
    const entries = capture().console.entries;
    expect(entries.map(({ level, text }) => ({ level, text }))).toEqual([
      { level: 'log', text: 'saved 3 items {id: 1}' },
      { level: 'warn', text: 'careful' },
      { level: 'error', text: expect.stringMatching(/^TypeError: bad\n/) },
    ]);
    expect(capture()).toMatchObject({ version: 1, startedBy: 'page' });
  });

  it('lets an exception of the original console method through, and records the call anyway', () => {
    const { win, capture } = createWindow();
    const thrower = new Error('console broke');
    (win.console as Record<string, unknown>).info = () => {
      throw thrower;
    };
    installPageCapture(win, 'page');
    expect(() => (win.console as Record<string, () => void>).info!()).toThrow(thrower);
    expect(capture().console.entries).toHaveLength(1);
  });

  it('keeps the newest messages within the bound and counts the ones it dropped', () => {
    const { win, capture } = createWindow();
    installPageCapture(win, 'page');
    const total = PAGE_TOOL_LIMITS.consoleMessages + 25;
    for (let i = 0; i < total; i++) (win.console as Record<string, (a: unknown) => void>).debug!(`message ${i}`);
    const { entries, dropped } = capture().console;
    expect(entries).toHaveLength(PAGE_TOOL_LIMITS.consoleMessages);
    expect(dropped).toBe(25);
    expect(entries[0]!.text).toBe('message 25');
    expect(entries.at(-1)!.text).toBe(`message ${total - 1}`);
  });

  it('records uncaught errors with their place, and unhandled rejections', () => {
    const { win, dispatch, capture } = createWindow();
    installPageCapture(win, 'page');
    const error = new Error('boom');
    dispatch('error', { message: 'Uncaught Error: boom', error, filename: 'http://localhost:5173/src/main.ts?token=abc', lineno: 12, colno: 5 });
    dispatch('error', { message: 'Script error.', error: null, filename: '', lineno: 0, colno: 0 });
    dispatch('unhandledrejection', { reason: new RangeError('late') });
    dispatch('unhandledrejection', { reason: 'just a string' });
    dispatch('error', { type: 'error' }); // a resource's error event, had it bubbled: not a script error
    expect(capture().errors.entries.map(({ time: _t, ...rest }) => rest)).toEqual([
      { kind: 'error', message: 'Error: boom', stack: error.stack, file: 'http://localhost:5173/src/main.ts?token=[redacted]', line: 12, column: 5 },
      { kind: 'error', message: 'Script error.', stack: null, file: null, line: null, column: null },
      { kind: 'unhandledrejection', message: 'RangeError: late', stack: expect.stringContaining('RangeError: late'), file: null, line: null, column: null },
      { kind: 'unhandledrejection', message: 'just a string', stack: null, file: null, line: null, column: null },
    ]);
  });

  it('records failed and 4xx/5xx fetches, and answers the page exactly as fetch did', async () => {
    const ok = new Response('fine');
    const missing = new Response('nope', { status: 404, statusText: 'Not Found' });
    const refused = new TypeError('Failed to fetch');
    const answers: Record<string, () => Promise<Response>> = {
      '/ok': async () => ok,
      '/missing': async () => missing,
      '/down': async () => Promise.reject(refused),
    };
    const seen: unknown[][] = [];
    const { win, capture } = createWindow(function (this: unknown, input, init) {
      seen.push([this, input, init]);
      return answers[String(input)]!();
    });
    installPageCapture(win, 'page');
    const init = { method: 'post', body: 'secret body' };
    expect(await win.fetch('/ok')).toBe(ok);
    expect(await win.fetch('/missing', init)).toBe(missing);
    await expect(win.fetch('/down')).rejects.toBe(refused);
    expect(seen).toEqual([
      [win, '/ok', undefined],
      [win, '/missing', init],
      [win, '/down', undefined],
    ]);
    expect(capture().network.entries).toEqual([
      { api: 'fetch', method: 'POST', url: 'http://localhost:5173/missing', status: 404, statusText: 'Not Found', error: null, start: expect.any(Number), durationMs: 25 },
      { api: 'fetch', method: 'GET', url: 'http://localhost:5173/down', status: null, statusText: null, error: 'TypeError: Failed to fetch', start: expect.any(Number), durationMs: 25 },
    ]);
    expect(JSON.stringify(capture())).not.toContain('secret body');
  });

  it('reads method and URL from a Request, and redacts the URL', async () => {
    const { win, capture } = createWindow(async () => new Response('', { status: 500 }));
    installPageCapture(win, 'page');
    await win.fetch(new Request('http://api.example.com/v1/me?api_key=k123', { method: 'DELETE' }));
    await win.fetch(new URL('http://api.example.com/v1/x?token=t'));
    expect(capture().network.entries.map((e) => [e.method, e.url])).toEqual([
      ['DELETE', 'http://api.example.com/v1/me?api_key=[redacted]'],
      ['GET', 'http://api.example.com/v1/x?token=[redacted]'],
    ]);
  });

  it('lets a synchronous throw of fetch through unchanged', () => {
    const thrown = new TypeError('Illegal invocation');
    const { win, capture } = createWindow(() => {
      throw thrown;
    });
    installPageCapture(win, 'page');
    expect(() => win.fetch('/x')).toThrow(thrown);
    expect(capture().network.entries).toEqual([]);
  });

  it('records XMLHttpRequest failures: errors, aborts, timeouts and 4xx/5xx, never the body', () => {
    const { win, capture } = createWindow();
    installPageCapture(win, 'page');
    FakeXhr.sent = [];
    const request = (method: string, url: string) => {
      const xhr = new win.XMLHttpRequest();
      expect(xhr.open(method, url)).toBe('opened');
      xhr.send('{"password":"hunter2"}');
      return xhr;
    };
    request('get', '/fine').finish(200);
    request('put', '/gone?session=s1').finish(410);
    request('GET', 'http://other.example/down').finish(0, ['error']);
    request('GET', '/slow').finish(0, ['timeout']);
    request('GET', '/stopped').finish(0, ['abort']);
    expect(capture().network.entries.map(({ start: _s, durationMs: _d, ...rest }) => rest)).toEqual([
      { api: 'xhr', method: 'PUT', url: 'http://localhost:5173/gone?session=[redacted]', status: 410, statusText: null, error: null },
      { api: 'xhr', method: 'GET', url: 'http://other.example/down', status: null, statusText: null, error: 'network error' },
      { api: 'xhr', method: 'GET', url: 'http://localhost:5173/slow', status: null, statusText: null, error: 'timed out' },
      { api: 'xhr', method: 'GET', url: 'http://localhost:5173/stopped', status: null, statusText: null, error: 'aborted' },
    ]);
    expect(JSON.stringify(capture())).not.toContain('hunter2');
  });

  it('never throws into the page, whatever it is given', async () => {
    const { win, dispatch } = createWindow();
    installPageCapture(win, 'page');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => (win.console as Record<string, (a: unknown) => void>).log!(proxy)).not.toThrow();
    expect(() => dispatch('error', null)).not.toThrow();
    expect(() => dispatch('unhandledrejection', { reason: proxy })).not.toThrow();
    await expect(win.fetch(proxy as unknown as string)).resolves.toBeInstanceOf(Response);
    const xhr = new win.XMLHttpRequest();
    expect(() => xhr.open(proxy as unknown as string, proxy as unknown as string)).not.toThrow();
    expect(() => xhr.send()).not.toThrow();
  });

  it('answers the page as its fetch did even when reading the answer throws', async () => {
    const odd = new Proxy({}, { get: (_target, key) => (key === 'then' ? undefined : Reflect.get({}, 'missing').boom) });
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const { win, capture } = createWindow(async (input) => {
      if (input === '/odd') return odd as Response;
      throw revoked;
    });
    installPageCapture(win, 'page');
    expect(await win.fetch('/odd')).toBe(odd);
    await expect(win.fetch('/revoked')).rejects.toBe(revoked);
    expect(capture().network.entries.map((e) => [e.url, e.error])).toEqual([['http://localhost:5173/revoked', '(unreadable)']]);
  });

  it('records each request of an XMLHttpRequest the page sends again, with one set of listeners', () => {
    const { win, capture } = createWindow();
    installPageCapture(win, 'page');
    const xhr = new win.XMLHttpRequest();
    const send = (url: string, status: number, events?: string[]) => {
      xhr.open('GET', url);
      xhr.send();
      xhr.finish(status, events);
    };
    send('/first', 500);
    send('/second', 200);
    send('/third', 0, ['error']);
    for (let i = 0; i < 20; i++) send('/poll', 200);
    expect(capture().network.entries.map((e) => [e.url, e.status, e.error])).toEqual([
      ['http://localhost:5173/first', 500, null],
      ['http://localhost:5173/third', null, 'network error'],
    ]);
    expect(xhr.listenerCount()).toBe(4);
  });

  it('holds no more memory than its bounded text, however large the strings the page logs, throws or requests', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const quiet = (..._args: unknown[]) => undefined;
    const win = {
      console: { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet },
      listeners: new Map<string, (event: unknown) => void>(),
      addEventListener(type: string, listener: (event: unknown) => void) {
        this.listeners.set(type, listener);
      },
      fetch: async (_input: string) => new Response('', { status: 500 }),
      location: { href: 'http://localhost:5173/' },
    };
    installPageCapture(win, 'page');
    const huge = (i: number) => `${i}`.padEnd(2_000_000, 'x');
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 8; i++) {
      win.console.log(huge(i));
      win.listeners.get('error')!({ message: 'Uncaught', error: new Error(huge(i)) });
      await win.fetch(`/api/${huge(i)}`);
    }
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(grownMb).toBeLessThan(10); // 24 strings of 2 MB, were they kept
    const capture = Reflect.get(win, PAGE_CAPTURE_KEY) as PageCapture;
    expect([capture.console.entries.length, capture.errors.entries.length, capture.network.entries.length]).toEqual([8, 8, 8]);
  });

  it('bounds the request method it records', async () => {
    const { win, capture } = createWindow(async () => Promise.reject(new TypeError('invalid method')));
    installPageCapture(win, 'page');
    await expect(win.fetch('/x', { method: 'M'.repeat(100_000) })).rejects.toThrow('invalid method');
    expect(capture().network.entries[0]!.method.length).toBeLessThanOrEqual(32);
  });

  it('costs a console call no more once its buffer is full, however long the page runs', () => {
    const quiet = () => undefined;
    const newConsole = () => {
      const target = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet };
      installPageCapture({ console: target, addEventListener: quiet }, 'page');
      return target;
    };
    const perCall = (target: { log: (a: string) => void }, calls: number) => {
      const start = performance.now();
      for (let i = 0; i < calls; i++) target.log('a message');
      return (performance.now() - start) / calls;
    };
    let empty = Infinity;
    let full = Infinity;
    for (let round = 0; round < 3; round++) {
      empty = Math.min(empty, perCall(newConsole(), PAGE_TOOL_LIMITS.consoleMessages - 100));
      const running = newConsole();
      perCall(running, 100_000);
      full = Math.min(full, perCall(running, 5_000));
    }
    expect(full / empty).toBeLessThan(3);
  });

  it('keeps the name and length of what it wraps', () => {
    const { win } = createWindow();
    win.fetch = async function fetch(_input: unknown) {
      return new Response('');
    };
    const c = win.console as Record<string, Function>;
    c.log = function log(..._args: unknown[]) {};
    installPageCapture(win, 'page');
    expect([win.fetch.name, win.fetch.length, c.log.name, c.log.length]).toEqual(['fetch', 1, 'log', 0]);
    const proto = win.XMLHttpRequest.prototype as unknown as Record<string, Function>;
    expect([proto.open!.name, proto.open!.length, proto.send!.name, proto.send!.length]).toEqual(['open', 2, 'send', 1]);
  });

  it('prints but does not record again a console call the recording itself causes', () => {
    const { win, printed, capture } = createWindow();
    installPageCapture(win, 'page');
    const log = (win.console as Record<string, (...args: unknown[]) => void>).log!;
    const watched: object = new Proxy({ a: 1 }, {
      ownKeys(target) {
        log('listing the keys of', watched);
        return Reflect.ownKeys(target);
      },
    });
    log(watched);
    expect(printed.map((p) => p.args[0])).toEqual(['listing the keys of', watched]);
    expect(capture().console.entries.map((e) => e.text)).toEqual(['{a: 1}']);
  });

  it('starts once: a second call (the toolbar taking over) keeps the first capture and its wrappers', () => {
    const { win, capture, printed } = createWindow();
    installPageCapture(win, 'page');
    const first = capture();
    const log = (win.console as Record<string, unknown>).log;
    installPageCapture(win, 'toolbar');
    expect(capture()).toBe(first);
    expect((win.console as Record<string, unknown>).log).toBe(log);
    (win.console as Record<string, (a: string) => void>).log!('once');
    expect(printed).toHaveLength(1);
    expect(first.console.entries).toHaveLength(1);
    expect(Object.keys(win)).not.toContain(String(PAGE_CAPTURE_KEY));
  });
});

describe('the built capture script (dist/page-capture.js)', () => {
  const script = buildPageCaptureScript();

  it('is small, ASCII, and cannot end its inline <script> early', () => {
    expect(script.length).toBeLessThan(12_000);
    expect(/^[\x00-\x7f]*$/.test(script)).toBe(true);
    expect(script).not.toMatch(/<\/script|<!--/i);
  });

  it('captures on its own, as the page’s first script', async () => {
    const { win, capture } = createWindow(async () => new Response('', { status: 503 }));
    new Function('window', script)(win);
    (win.console as Record<string, (a: string) => void>).warn!('early');
    await win.fetch('/api');
    expect(capture()).toMatchObject({
      startedBy: 'page',
      console: { entries: [{ level: 'warn', text: 'early' }], dropped: 0 },
      network: { entries: [{ api: 'fetch', status: 503, url: 'http://localhost:5173/api' }] },
    });
  });

  it('names itself and puts itself on DevTools’ ignore list, so a console message shows the page’s own line', () => {
    const [sourceUrl, mapUrl] = script.split('\n').slice(-2);
    expect(sourceUrl).toBe(`//# sourceURL=${PAGE_CAPTURE_SOURCE_URL}`);
    const map = JSON.parse(Buffer.from(mapUrl!.replace('//# sourceMappingURL=data:application/json;base64,', ''), 'base64').toString('utf8'));
    expect(map).toMatchObject({ version: 3, sources: [PAGE_CAPTURE_SOURCE_URL], ignoreList: [0], x_google_ignoreList: [0] });
    const codeLines = script.split('\n').length - 2;
    expect(map.mappings.split(';')).toEqual(Array.from({ length: codeLines }, () => 'AAAA'));
  });

  it('hands the capture to a toolbar that loaded it, which starts it as its own', () => {
    const { win, capture } = createWindow();
    const handed: unknown[] = [];
    Reflect.set(win, PAGE_CAPTURE_REGISTER, (install: unknown) => handed.push(install));
    new Function('window', script)(win);
    expect(capture()).toBeUndefined();
    expect(handed).toEqual([expect.any(Function)]);
    (handed[0] as typeof installPageCapture)(win, 'toolbar');
    expect(capture()).toMatchObject({ startedBy: 'toolbar' });
  });
});
