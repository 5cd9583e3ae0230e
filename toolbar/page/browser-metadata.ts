import { LIMITS } from '../../shared/limits.ts';
import type { BrowserMetadata } from '../../shared/schemas.ts';
import { truncateText } from '../../shared/truncate.ts';

/** The part of `window` the metadata reads, so tests can pass a plain object. */
export interface BrowserWindow {
  location: { href: string };
  document: { title: string };
  innerWidth: number;
  innerHeight: number;
  devicePixelRatio: number;
  navigator: { userAgent: string; language: string };
}

/**
 * What the agent learns about the page with every message (PROTOCOL §3, `UserMetadata.browser`),
 * cut to the protocol limits.
 *
 * @example
 * collectBrowserMetadata(window) // { url: 'http://localhost:5173/', title: 'App', viewport: {…}, … }
 */
export function collectBrowserMetadata(win: BrowserWindow): BrowserMetadata {
  return {
    url: truncateText(win.location.href, LIMITS.maxUrlLength),
    title: truncateText(win.document.title ?? '', LIMITS.maxPageTitleLength),
    viewport: { width: win.innerWidth, height: win.innerHeight },
    devicePixelRatio: win.devicePixelRatio || 1,
    userAgent: truncateText(win.navigator.userAgent ?? '', LIMITS.maxUserAgentLength),
    locale: truncateText(win.navigator.language || 'en', LIMITS.maxLocaleLength),
  };
}
