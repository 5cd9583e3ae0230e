/**
 * What `toolbar.js` (the launcher, loaded by every page view) and `panel.js` (the rest of the
 * toolbar, loaded on idle or on first open) hand each other. Both are separate bundles, so
 * nothing here may hold state: only the names and shapes of what crosses between them.
 */
import type { ConfigResult } from './config.ts';
import type { Theme } from './prefs.ts';

/** Where `panel.js` hands over its mount function, as the other lazy scripts do theirs. */
export const PANEL_REGISTER = Symbol.for('agentbar.panel');

/** The launcher button's look, as the panel computes it from the connection and the chat. */
export interface LauncherView {
  /** The dot's class: `connected`, `reconnecting`, `offline` or `busy`. */
  dot: string;
  /** Tool calls waiting for approval, shown as a badge; 0 hides it. */
  waiting: number;
  /** The button's tooltip. */
  title: string;
}

/** The launcher button, drawn by `toolbar.js` and driven by the panel once it is loaded. */
export interface LauncherHandle {
  update(view: LauncherView): void;
  /** Hidden while the panel is open: the panel takes its place. */
  setHidden(hidden: boolean): void;
  setTheme(theme: Theme): void;
  focus(): void;
  /** What a click on the button does from now on (before: load the panel and open it). */
  onOpen(open: () => void): void;
}

export interface PanelContext {
  win: Window;
  /** The toolbar's shadow root: the panel adds its CSS and its own root to it. */
  shadow: ShadowRoot;
  /** The host element, which the page tools and the picker leave out. */
  host: HTMLElement;
  config: ConfigResult;
  /** The folder of `toolbar.js` and its nonce, where the panel's own optional scripts load from. */
  scripts: { root: string | null; nonce?: string };
  launcher: LauncherHandle;
  /** True when a click on the launcher asked for the panel: it opens, and takes the focus. */
  openNow: boolean;
  /** The page capture the launcher started at page load (null: the page's early script runs it). */
  pageCapture: Promise<string | null> | null;
}

export interface PanelHandle {
  /** Removes the panel, closes its connection and unbinds everything it bound. */
  unmount(): void;
}

export type MountPanel = (context: PanelContext) => PanelHandle;

/**
 * True for what `panel.js` registers.
 *
 * @example defineLazyScript('panel.js', PANEL_REGISTER, isMountPanel)
 */
export function isMountPanel(value: unknown): value is MountPanel {
  return typeof value === 'function';
}
