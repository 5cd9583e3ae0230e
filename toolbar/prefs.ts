/**
 * The UI preferences kept in localStorage (panel open, its size, the theme). Read by the launcher
 * at page load, before the panel's code is there, so this file imports nothing: the launcher
 * bundle stays small.
 */

/** The panel's colours: those the system asks for (`prefers-color-scheme`), or always one. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface UiPrefs {
  open: boolean;
  width: number;
  height: number;
  theme: Theme;
}

/** The subset of `Storage` the prefs use; null when the page forbids storage. */
export type PrefsStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const PREFS_KEY = 'agentbar:toolbar';
export const DEFAULT_PREFS: UiPrefs = { open: false, width: 380, height: 560, theme: 'system' };
export const SIZE_BOUNDS = { minWidth: 320, maxWidth: 960, minHeight: 360, maxHeight: 1200 } as const;

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(n)));
}

/**
 * Keeps a panel size within SIZE_BOUNDS (the viewport bound is applied by CSS).
 *
 * @example clampSize(100, 5000) // { width: 320, height: 1200 }
 */
export function clampSize(width: number, height: number): { width: number; height: number } {
  return {
    width: clamp(Number.isFinite(width) ? width : DEFAULT_PREFS.width, SIZE_BOUNDS.minWidth, SIZE_BOUNDS.maxWidth),
    height: clamp(Number.isFinite(height) ? height : DEFAULT_PREFS.height, SIZE_BOUNDS.minHeight, SIZE_BOUNDS.maxHeight),
  };
}

/**
 * Reads UI prefs, falling back to defaults for anything missing or malformed.
 *
 * @example
 * loadPrefs(window.localStorage) // { open: true, width: 420, height: 600, theme: 'system' }
 */
export function loadPrefs(storage: PrefsStorage | null): UiPrefs {
  let raw: unknown = null;
  try {
    const text = storage?.getItem(PREFS_KEY);
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_PREFS };
  const r = raw as Partial<Record<keyof UiPrefs, unknown>>;
  const size = clampSize(
    typeof r.width === 'number' ? r.width : DEFAULT_PREFS.width,
    typeof r.height === 'number' ? r.height : DEFAULT_PREFS.height,
  );
  const theme = THEMES.find((t) => t === r.theme) ?? DEFAULT_PREFS.theme;
  return { open: typeof r.open === 'boolean' ? r.open : DEFAULT_PREFS.open, ...size, theme };
}

/**
 * The page's localStorage, or null where the page forbids it.
 *
 * @example loadPrefs(pageStorage(window))
 */
export function pageStorage(win: Window): PrefsStorage | null {
  try {
    return win.localStorage;
  } catch {
    // Sandboxed frames and some privacy modes throw on access.
    return null;
  }
}
