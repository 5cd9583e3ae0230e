/**
 * The launcher button, drawn with plain DOM by `toolbar.js` on every page view (no Preact: the
 * launcher bundle stays small). The panel, once loaded, drives it through its LauncherHandle.
 */
import type { LauncherHandle } from './panel-api.ts';
import type { Theme } from './prefs.ts';

/** The chat bubble of the launcher (24×24 viewBox), shared with the panel's ChatIcon. */
export const CHAT_ICON_PATH = 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Keys typed in the toolbar stay in the toolbar: page shortcuts must not fire on them. */
function stopKey(e: Event): void {
  e.stopPropagation();
}

function drawIcon(doc: Document): SVGSVGElement {
  const svg = doc.createElementNS(SVG_NS, 'svg');
  const attrs: Record<string, string> = {
    width: '20', height: '20', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'stroke-width': '2',
    'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true', focusable: 'false',
  };
  for (const [name, value] of Object.entries(attrs)) svg.setAttribute(name, value);
  const path = doc.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', CHAT_ICON_PATH);
  svg.append(path);
  return svg;
}

/**
 * Draws the launcher into `shadow` (in a `.ab-root` of its own, with the theme) and returns its
 * handle, its button, and `setClick` for what a click does before the panel takes over.
 *
 * @example const launcher = drawLauncher(document, shadow, 'system'); launcher.setClick(openPanel);
 */
export function drawLauncher(doc: Document, shadow: ShadowRoot, theme: Theme): LauncherHandle & { button: HTMLButtonElement; setClick(click: () => void): void } {
  const root = doc.createElement('div');
  root.className = 'ab-root';
  for (const type of ['keydown', 'keyup', 'keypress']) root.addEventListener(type, stopKey);
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'ab-launcher';
  button.setAttribute('aria-label', 'Open agentbar');
  const dot = doc.createElement('span');
  dot.setAttribute('aria-hidden', 'true');
  const badge = doc.createElement('span');
  badge.className = 'ab-badge';
  badge.setAttribute('aria-hidden', 'true');
  button.append(drawIcon(doc), dot);
  root.append(button);
  shadow.append(root);

  let click = () => {};
  button.addEventListener('click', () => click());
  const handle = {
    button,
    setClick(next: () => void) {
      click = next;
    },
    update(view: { dot: string; waiting: number; title: string }) {
      dot.className = `ab-dot ab-${view.dot}`;
      button.title = view.title;
      badge.textContent = String(view.waiting);
      if (view.waiting > 0) button.append(badge);
      else badge.remove();
    },
    setHidden(hidden: boolean) {
      button.hidden = hidden;
    },
    setTheme(next: Theme) {
      // Without data-theme the colours follow the system's (styles.ts).
      if (next === 'system') root.removeAttribute('data-theme');
      else root.setAttribute('data-theme', next);
    },
    focus() {
      button.focus();
    },
    onOpen(open: () => void) {
      click = open;
    },
  };
  handle.setTheme(theme);
  handle.update({ dot: 'reconnecting', waiting: 0, title: 'agentbar: connecting' });
  return handle;
}
