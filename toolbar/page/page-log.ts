/**
 * The toolbar's side of the page capture: takes over the buffers the early script filled (or has
 * the capture started when the page had no such script) and hands the page-log tools what they
 * read. Reading them, which checks every entry, is read-page-log.ts, in `page-tools.js`.
 */
import { healthUrlOf } from './refusal-probe.ts';
import { isPageCaptureInstalled, PAGE_CAPTURE_KEY, type CaptureWindow } from './page-capture.ts';

/** What the page-log tools read the page's log from. */
export interface PageLogSource {
  /** What is at `window[PAGE_CAPTURE_KEY]` now: the capture's buffers, unless the page changed them. */
  capture(): unknown;
  /** Why nothing is captured while the capture has not started, or could not; null once it runs. */
  notStarted(): string | null;
  /** True for the requests the toolbar itself makes to the agent server: they are not the page's. */
  isOwnRequest(url: string): boolean;
}

/**
 * The requests the toolbar itself makes to the agent server (the `/health` probe while offline):
 * they are not the page's.
 *
 * @example isOwnRequest('http://127.0.0.1:4477/health', 'ws://127.0.0.1:4477/ws') // true
 */
export function isOwnRequest(url: string, socketUrl: string): boolean {
  try {
    return url === healthUrlOf(socketUrl);
  } catch {
    return false;
  }
}

/**
 * Makes sure the page is captured (taking over the early script's buffers, or having
 * `startCapture` start it, which resolves null once it runs or with why it cannot) and returns
 * what the page-log tools read.
 *
 * @example const log = bindPageLog(window, 'ws://127.0.0.1:4477/ws', () => startPageCapture(window)); readPageLog(log)
 */
export function bindPageLog(win: CaptureWindow, socketUrl: string, startCapture: () => Promise<string | null>): PageLogSource {
  let notStarted: string | null = null;
  if (!isPageCaptureInstalled(win)) {
    notStarted = 'Nothing was captured yet: the page capture is still starting; ask again in a moment';
    startCapture().then(
      (why) => (notStarted = why),
      () => (notStarted = 'Nothing was captured on this page: the page capture did not start'),
    );
  }
  return {
    capture: () => Reflect.get(win, PAGE_CAPTURE_KEY),
    notStarted: () => notStarted,
    isOwnRequest: (url) => isOwnRequest(url, socketUrl),
  };
}
