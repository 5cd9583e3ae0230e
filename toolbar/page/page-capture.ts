/**
 * Records what the page says while it runs (console messages, uncaught errors and unhandled
 * rejections, failed `fetch` and `XMLHttpRequest` requests) into bounded ring buffers on a global
 * the toolbar reads. Built alone into `dist/page-capture.js`, the small script the Vite plugin and
 * the demo page put first in the page, so it sees what the page does before the deferred toolbar
 * runs; on a page without it, the toolbar loads the same script at boot (page-capture-loader.ts).
 *
 * The page must not notice: each wrapper calls the original with the same `this` and arguments,
 * returns what it returns (a fetch's promise settles the same way, one microtask later) and throws
 * what it throws; the recording never throws into the page and never runs the page's code.
 */
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { truncateText } from '../../shared/truncate.ts';
import { describeThrown, formatConsoleArgs, previewValue } from './format-console-args.ts';
import { redactUrl } from './redact-url.ts';

/** Where the capture lives on `window` (not enumerable, so the page's own globals look the same). */
export const PAGE_CAPTURE_KEY = Symbol.for('agentbar.pageCapture');
/** Where a toolbar that loads the script itself waits for `installPageCapture` (page-capture-entry.ts). */
export const PAGE_CAPTURE_REGISTER = Symbol.for('agentbar.pageCapture.register');
/** Bumped when the shape below changes: a toolbar reads only the version it knows. */
export const PAGE_CAPTURE_VERSION = 1;
export const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

export interface ConsoleEntry {
  level: ConsoleLevel;
  text: string;
  time: number;
}

export interface PageErrorEntry {
  kind: 'error' | 'unhandledrejection';
  message: string;
  stack: string | null;
  /** Where the browser says it was thrown (an `error` event's filename, line and column). */
  file: string | null;
  line: number | null;
  column: number | null;
  time: number;
}

export interface NetworkFailureEntry {
  api: 'fetch' | 'xhr';
  method: string;
  url: string;
  /** The HTTP status of a 4xx/5xx answer; null when no answer came. */
  status: number | null;
  statusText: string | null;
  /** Why no answer came: the rejection of a fetch, or `network error`, `aborted`, `timed out`. */
  error: string | null;
  start: number;
  durationMs: number;
}

/** The newest entries (at most the buffer's bound) and how many older ones were dropped. */
export interface RingBuffer<T> {
  entries: T[];
  dropped: number;
}

export interface PageCapture {
  version: typeof PAGE_CAPTURE_VERSION;
  /** When capture began (epoch ms), and who began it: the early script or the toolbar. */
  startedAt: number;
  startedBy: 'page' | 'toolbar';
  console: RingBuffer<ConsoleEntry>;
  errors: RingBuffer<PageErrorEntry>;
  network: RingBuffer<NetworkFailureEntry>;
}

/** The part of `window` the capture wraps and listens to, so tests can pass a plain object. */
export interface CaptureWindow {
  /** Optional in the type only: DOM typings declare `console` as a global, not on `Window`. */
  console?: object;
  addEventListener(type: string, listener: (event: unknown) => void): void;
  fetch?: unknown;
  XMLHttpRequest?: unknown;
  location?: { href: string };
  performance?: { now(): number };
}

/** Adds `entry`, dropping the oldest past `max`: `shift`, which engines make cheap, on every console call. */
function push<T>(buffer: RingBuffer<T>, entry: T, max: number): void {
  buffer.entries.push(entry);
  while (buffer.entries.length > max) {
    buffer.entries.shift();
    buffer.dropped++;
  }
}

/**
 * `text` in a string of its own: a piece cut from a larger string can keep that whole string alive
 * (V8 slices point into their source), and the buffers must hold no more than their own text.
 */
function ownCopy(text: string): string {
  return (' ' + text).slice(1);
}

/** `ownCopy` of a text that may be null. */
function ownCopyOrNull(text: string | null): string | null {
  return text === null ? null : ownCopy(text);
}

function monotonicNow(win: CaptureWindow): number {
  return win.performance ? win.performance.now() : Date.now();
}

/**
 * Replaces `target[key]` with `wrap(original)` when it is a function; a read-only one is left as it
 * is. The wrapper keeps the original's `name` and `length`, which some code reads.
 */
function wrapMethod(target: object, key: string, wrap: (original: Function) => Function): void {
  const original: unknown = Reflect.get(target, key);
  if (typeof original !== 'function') return;
  const wrapped = wrap(original);
  for (const own of ['name', 'length']) {
    try {
      const descriptor = Object.getOwnPropertyDescriptor(original, own);
      if (descriptor) Object.defineProperty(wrapped, own, descriptor);
    } catch {
      // A wrapper that looks a little different still behaves the same.
    }
  }
  Reflect.set(target, key, wrapped);
}

function wrapConsole(win: CaptureWindow, capture: PageCapture): void {
  const target = win.console;
  if (!target) return;
  // A console call made while a message is being formatted (by a proxy's trap, say) is the
  // recording's doing, not the page's: it prints, but is not formatted again, which could recurse.
  let recording = false;
  for (const level of CONSOLE_LEVELS) {
    wrapMethod(target, level, (original) =>
      function (this: unknown, ...args: unknown[]) {
        if (!recording) {
          recording = true;
          try {
            const text = formatConsoleArgs(args, PAGE_TOOL_LIMITS.consoleArgChars, PAGE_TOOL_LIMITS.consoleMessageChars);
            push(capture.console, { level, text: ownCopy(text), time: Date.now() }, PAGE_TOOL_LIMITS.consoleMessages);
          } catch {
            // Never into the page.
          } finally {
            recording = false;
          }
        }
        return Reflect.apply(original, this, args);
      },
    );
  }
}

function readNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function recordError(capture: PageCapture, kind: PageErrorEntry['kind'], thrown: unknown, fallback: string, where: { file?: unknown; line?: unknown; column?: unknown }): void {
  const described = thrown === undefined || thrown === null ? { message: fallback, stack: null } : describeThrown(thrown, PAGE_TOOL_LIMITS.errorMessageChars, PAGE_TOOL_LIMITS.errorStackChars);
  const file = typeof where.file === 'string' && where.file ? redactUrl(where.file, undefined, PAGE_TOOL_LIMITS.networkUrlChars) : null;
  push(
    capture.errors,
    { kind, message: ownCopy(described.message), stack: ownCopyOrNull(described.stack), file: ownCopyOrNull(file), line: readNumber(where.line), column: readNumber(where.column), time: Date.now() },
    PAGE_TOOL_LIMITS.pageErrors,
  );
}

function listenForErrors(win: CaptureWindow, capture: PageCapture): void {
  // Resource load errors do not bubble to window, so only script errors arrive here.
  win.addEventListener('error', (event) => {
    try {
      if (!event || typeof event !== 'object' || !('message' in event)) return;
      const message: unknown = Reflect.get(event, 'message');
      recordError(capture, 'error', Reflect.get(event, 'error'), typeof message === 'string' && message ? message : 'Script error.', {
        file: Reflect.get(event, 'filename'),
        line: Reflect.get(event, 'lineno'),
        column: Reflect.get(event, 'colno'),
      });
    } catch {
      // Never into the page.
    }
  });
  win.addEventListener('unhandledrejection', (event) => {
    try {
      if (!event || typeof event !== 'object' || !('reason' in event)) return;
      const reason: unknown = Reflect.get(event, 'reason');
      recordError(capture, 'unhandledrejection', reason, previewValue(reason, PAGE_TOOL_LIMITS.errorMessageChars), {});
    } catch {
      // Never into the page.
    }
  });
}

/** The method and URL a `fetch(input, init)` call asks for, read the way fetch reads them. */
function describeFetch(win: CaptureWindow, input: unknown, init: unknown): { method: string; url: string } {
  let url = '';
  let method = 'GET';
  if (typeof input === 'string') url = input;
  else if (typeof URL === 'function' && input instanceof URL) url = input.href;
  else if (typeof Request === 'function' && input instanceof Request) {
    url = input.url;
    method = input.method;
  }
  if (init && typeof init === 'object') {
    const asked: unknown = Reflect.get(init, 'method');
    if (typeof asked === 'string') method = asked;
  }
  return { method: method.toUpperCase(), url: redactUrl(url, win.location?.href, PAGE_TOOL_LIMITS.networkUrlChars) };
}

/** A request method as recorded: real ones are short words, and the page may pass any string. */
const METHOD_CHARS = 32;

function failure(api: NetworkFailureEntry['api'], request: { method: string; url: string }, start: number, startMono: number, win: CaptureWindow, outcome: { status?: number; statusText?: string; error?: string }): NetworkFailureEntry {
  return {
    api,
    method: ownCopy(truncateText(request.method, METHOD_CHARS)),
    url: ownCopy(request.url),
    status: outcome.status ?? null,
    statusText: outcome.statusText ? ownCopy(outcome.statusText.slice(0, 200)) : null,
    error: outcome.error === undefined ? null : ownCopy(outcome.error),
    start,
    durationMs: Math.max(0, Math.round(monotonicNow(win) - startMono)),
  };
}

function wrapFetch(win: CaptureWindow, capture: PageCapture): void {
  wrapMethod(win, 'fetch', (original) =>
    function (this: unknown, ...args: unknown[]) {
      let request: { method: string; url: string } | null = null;
      const start = Date.now();
      const startMono = monotonicNow(win);
      try {
        request = describeFetch(win, args[0], args[1]);
      } catch {
        request = null;
      }
      const result = Reflect.apply(original, this, args);
      if (!request || !(result instanceof Promise)) return result;
      const asked = request;
      const record = (outcome: { status?: number; statusText?: string; error?: string }) =>
        push(capture.network, failure('fetch', asked, start, startMono, win, outcome), PAGE_TOOL_LIMITS.networkFailures);
      // A new promise that settles as the page's would: the same response, or the same rejection
      // (left unhandled when the page does not handle it, so `unhandledrejection` still fires).
      // Reading the answer is part of the recording: whatever it throws stays out of the page.
      return result.then(
        (response: unknown) => {
          try {
            if (response && typeof response === 'object') {
              const status: unknown = Reflect.get(response, 'status');
              const statusText: unknown = Reflect.get(response, 'statusText');
              if (typeof status === 'number' && status >= 400) record({ status, statusText: typeof statusText === 'string' ? statusText : '' });
            }
          } catch {
            // Never into the page.
          }
          return response;
        },
        (error: unknown) => {
          try {
            record({ error: describeThrown(error, 300, 0).message });
          } catch {
            // Never into the page.
          }
          throw error;
        },
      );
    },
  );
}

interface XhrRequest {
  method: string;
  url: string;
}

/** The request an XMLHttpRequest object is sending now, and why it ended without an answer. */
interface XhrSending {
  request: XhrRequest;
  start: number;
  startMono: number;
  error?: string;
}

/**
 * What `open` asked for and what `send` sent, per request object, out of the page's sight. A
 * request object the page sends again and again gets one set of listeners, which record the
 * request it is sending now.
 */
function wrapXhr(win: CaptureWindow, capture: PageCapture): void {
  const ctor = win.XMLHttpRequest;
  if (typeof ctor !== 'function' || !ctor.prototype) return;
  const proto: object = ctor.prototype;
  const opened = new WeakMap<object, XhrRequest>();
  const sending = new WeakMap<object, XhrSending>();
  wrapMethod(proto, 'open', (original) =>
    function (this: object, ...args: unknown[]) {
      try {
        const [method, url] = args;
        const href = typeof url === 'string' ? url : typeof URL === 'function' && url instanceof URL ? url.href : '';
        opened.set(this, {
          method: typeof method === 'string' ? method.toUpperCase() : 'GET',
          url: redactUrl(href, win.location?.href, PAGE_TOOL_LIMITS.networkUrlChars),
        });
      } catch {
        // Never into the page.
      }
      return Reflect.apply(original, this, args);
    },
  );
  wrapMethod(proto, 'send', (original) =>
    function (this: object, ...args: unknown[]) {
      try {
        const request = opened.get(this);
        if (request && isEventTarget(this)) {
          if (!sending.has(this)) listenToXhr(win, capture, this, sending);
          sending.set(this, { request, start: Date.now(), startMono: monotonicNow(win) });
        }
      } catch {
        // Never into the page.
      }
      return Reflect.apply(original, this, args);
    },
  );
}

interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void;
}

function isEventTarget(value: object): value is EventTargetLike {
  return typeof Reflect.get(value, 'addEventListener') === 'function';
}

/** Listens to one request object for good; each `loadend` records the request `sending` holds. */
function listenToXhr(win: CaptureWindow, capture: PageCapture, xhr: EventTargetLike, sending: WeakMap<object, XhrSending>): void {
  const failWith = (error: string) => () => {
    const now = sending.get(xhr);
    if (now) now.error = error;
  };
  xhr.addEventListener('error', failWith('network error'));
  xhr.addEventListener('abort', failWith('aborted'));
  xhr.addEventListener('timeout', failWith('timed out'));
  xhr.addEventListener('loadend', () => {
    try {
      const now = sending.get(xhr);
      if (!now) return;
      const status: unknown = Reflect.get(xhr, 'status');
      const statusText: unknown = Reflect.get(xhr, 'statusText');
      if (!now.error && !(typeof status === 'number' && status >= 400)) return;
      const outcome = now.error ? { error: now.error } : { status: Number(status), statusText: typeof statusText === 'string' ? statusText : '' };
      push(capture.network, failure('xhr', now.request, now.start, now.startMono, win, outcome), PAGE_TOOL_LIMITS.networkFailures);
    } catch {
      // Never into the page.
    }
  });
}

/**
 * True when a capture of this version runs on `win` (the early script's, or one started before).
 *
 * @example if (!isPageCaptureInstalled(window)) startCaptureLate();
 */
export function isPageCaptureInstalled(win: CaptureWindow): boolean {
  const found: unknown = Reflect.get(win, PAGE_CAPTURE_KEY);
  return !!found && typeof found === 'object' && Reflect.get(found, 'version') === PAGE_CAPTURE_VERSION;
}

/**
 * Starts capturing on `win`, once: when a capture already runs (the early script's, when the
 * toolbar calls it) this does nothing. The buffers are then `window[PAGE_CAPTURE_KEY]`.
 *
 * @example
 * installPageCapture(window, 'page'); // first thing in the page
 * installPageCapture(window, 'toolbar'); // the toolbar, on a page without the early script
 */
export function installPageCapture(win: CaptureWindow, startedBy: PageCapture['startedBy']): void {
  if (isPageCaptureInstalled(win)) return;
  const capture: PageCapture = {
    version: PAGE_CAPTURE_VERSION,
    startedAt: Date.now(),
    startedBy,
    console: { entries: [], dropped: 0 },
    errors: { entries: [], dropped: 0 },
    network: { entries: [], dropped: 0 },
  };
  try {
    Object.defineProperty(win, PAGE_CAPTURE_KEY, { value: capture, configurable: true });
  } catch {
    // A window that takes no new property: nobody could read what we would record.
    return;
  }
  for (const start of [wrapConsole, listenForErrors, wrapFetch, wrapXhr]) {
    try {
      start(win, capture);
    } catch {
      // One part that cannot start leaves the others running.
    }
  }
}
