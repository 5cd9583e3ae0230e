/**
 * A script beside the toolbar's own that, when it runs, hands the toolbar one value through a
 * register function on `window` (the page-drawing code of `screenshot.js`, the page tools of
 * `page-tools.js`, the page capture of `page-capture.js`). It is loaded the first time it is
 * needed and once only; after a failed load (blocked, late, missing) the next use tries again.
 */
import { loadScript, scriptUrl, TRUSTED_TYPES_POLICY } from './load-script.ts';

export interface LazyScript<T> {
  /** The value the script handed over; null when it could not be loaded. */
  load(win: Window, timeoutMs: number): Promise<T | null>;
  /** Why it did not load, with what the page must allow, in words for an agent or a developer. */
  whyNotLoaded(): string;
}

/**
 * Describes the script `file` (beside `toolbar.js`), which calls `window[register](value)`; only a
 * value `accept` vouches for is kept, the first one.
 *
 * @example
 * const pictures = defineLazyScript('screenshot.js', PICTURE_REGISTER, isPictureApi);
 * const api = await pictures.load(window, 3_000); // null: not loaded
 */
export function defineLazyScript<T>(file: string, register: symbol, accept: (value: unknown) => value is T): LazyScript<T> {
  let value: T | null = null;
  let loading: Promise<void> | null = null;
  return {
    async load(win, timeoutMs) {
      const url = scriptUrl(file);
      if (value || !url) return value;
      (win as unknown as Record<symbol, unknown>)[register] = (candidate: unknown) => {
        if (!value && accept(candidate)) value = candidate;
      };
      loading ??= loadScript(url, { timeoutMs }).finally(() => (loading = null));
      await loading;
      return value;
    },
    whyNotLoaded() {
      const url = scriptUrl(file);
      if (!url) return `${file} loads from beside toolbar.js, and the toolbar's script tag has no src to find it by`;
      return (
        `${file} could not be loaded from ${url}. If the page has a Content-Security-Policy, ` +
        `its script-src must admit ${new URL(url).origin} (or the toolbar's script tag must carry the page's nonce); ` +
        `if it enforces Trusted Types, its trusted-types directive must allow the policy '${TRUSTED_TYPES_POLICY}'`
      );
    },
  };
}
