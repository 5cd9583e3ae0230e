/**
 * Copying text from a button: the Clipboard API where the page may use it, else the older
 * `execCommand('copy')` on a hidden text box, which also works where the API does not: a page
 * served over plain http from another machine's address (`vite --host`, a phone on the LAN) is not
 * a secure context and has no `navigator.clipboard`, and an iframe without the clipboard-write
 * permission has one that refuses.
 */
import { useEffect, useState } from 'preact/hooks';

export type CopyState = 'idle' | 'done' | 'failed';

/**
 * The state of a copy button (done or failed for 1.5 s, then idle again) and the function to copy.
 *
 * @example
 * const [state, copy] = useCopy();
 * <button onClick={(e) => copy(text, e.currentTarget)}>{state === 'done' ? 'Copied' : 'Copy'}</button>
 */
export function useCopy(): [CopyState, (text: string, from: Element) => void] {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = (text: string, from: Element) => {
    copyText(text, from).then(
      (ok) => setState(ok ? 'done' : 'failed'),
      () => setState('failed'),
    );
  };
  return [state, copy];
}

/**
 * Puts `text` on the clipboard; resolves false when neither way could. `from` is the element
 * clicked: the fallback's text box goes beside it (in the toolbar's shadow root) and focus
 * goes back to it.
 */
export async function copyText(text: string, from: Element): Promise<boolean> {
  const clipboard = globalThis.navigator?.clipboard;
  if (clipboard) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission in this frame): the older way may still be allowed.
    }
  }
  return copyWithSelection(text, from);
}

function copyWithSelection(text: string, from: Element): boolean {
  const doc = from.ownerDocument;
  if (typeof doc.execCommand !== 'function') return false;
  const box = doc.createElement('textarea');
  box.value = text;
  box.setAttribute('readonly', '');
  box.setAttribute('aria-hidden', 'true');
  // Off screen but laid out: a text box that is not rendered cannot be selected.
  box.style.cssText = 'position:fixed;top:0;left:-9999px;width:1px;height:1px;opacity:0;';
  (from.parentNode ?? doc.body).appendChild(box);
  try {
    box.select();
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    box.remove();
    (from as HTMLElement).focus?.({ preventScroll: true });
  }
}
