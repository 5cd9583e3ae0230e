/**
 * Element picking: while active, the element under the pointer is reported for the hover outline
 * and a click picks it. Listeners sit on `window` in the capture phase, so the page's own
 * handlers never see the pointer presses and clicks that picking consumes; the page's elements
 * are never restyled (the outline is drawn by the toolbar, in its shadow root). Escape ends.
 */

import { truncateText } from '../../shared/truncate.ts';

export interface PickerOptions {
  window: Window;
  /** The toolbar's host element: events inside it are left alone, and it is never picked. */
  host: Element;
  onHover(el: Element | null): void;
  onPick(el: Element): void;
  onEnd(): void;
}

/** Events a click is made of; all of them are kept from the page while picking. */
const SWALLOWED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu', 'touchstart', 'touchend'];

/**
 * Starts picking; returns the function that stops it (idempotent).
 *
 * @example
 * const stop = startPicker({ window, host, onHover, onPick, onEnd: () => stop() });
 */
export function startPicker(options: PickerOptions): () => void {
  const { window: win, host } = options;
  let active = true;

  const targetOf = (ev: Event): Element | null => {
    const path = ev.composedPath();
    if (path.includes(host)) return null;
    const target = ev.target;
    if (!target || typeof (target as Element).getBoundingClientRect !== 'function') return null;
    const el = target as Element;
    // The root elements are never what the developer points at.
    if (el === win.document.documentElement || el === win.document.body) return null;
    return el;
  };

  const onMove = (ev: Event) => {
    options.onHover(targetOf(ev));
  };

  const onSwallow = (ev: Event) => {
    const el = targetOf(ev);
    if (!el) return;
    // A touch's default action is the click that picks (cancelling touchend cancels it), and
    // touchstart on window is passive anyway: the page's handlers are kept out all the same.
    if (!ev.type.startsWith('touch')) ev.preventDefault();
    ev.stopImmediatePropagation();
    if (ev.type !== 'click') return;
    options.onPick(el);
    // The pick is done: its own outline shows it, and a finger leaves no hover to clear this one.
    options.onHover(null);
  };

  const onKey = (ev: KeyboardEvent) => {
    if (ev.key !== 'Escape') return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    options.onEnd();
  };

  const onLeave = (ev: MouseEvent) => {
    if (!ev.relatedTarget) options.onHover(null);
  };

  win.addEventListener('pointermove', onMove, true);
  win.document.addEventListener('mouseout', onLeave, true);
  for (const type of SWALLOWED) win.addEventListener(type, onSwallow, true);
  win.addEventListener('keydown', onKey, true);

  return () => {
    if (!active) return;
    active = false;
    win.removeEventListener('pointermove', onMove, true);
    win.document.removeEventListener('mouseout', onLeave, true);
    for (const type of SWALLOWED) win.removeEventListener(type, onSwallow, true);
    win.removeEventListener('keydown', onKey, true);
    options.onHover(null);
  };
}

/** A short label for an element: `button#save.primary`. */
export function labelElement(info: { tagName: string; attributes: Record<string, string> }): string {
  let label = info.tagName;
  const id = info.attributes.id;
  if (id) label += `#${id}`;
  const cls = info.attributes.class?.trim().split(/\s+/).filter(Boolean).slice(0, 2);
  if (cls?.length) label += '.' + cls.join('.');
  return truncateText(label, 60);
}
