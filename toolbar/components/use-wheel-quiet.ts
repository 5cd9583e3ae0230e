import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/** How long after the last wheel event the list's content takes the pointer again. */
export const WHEEL_QUIET_MS = 200;

/**
 * Marks `target` with `data-wheeling` while the wheel scrolls it, and for WHEEL_QUIET_MS after.
 * The styles then take pointer events off the messages (`.ab-log[data-wheeling] .ab-log-inner`).
 * Why: after every scrolled frame the browser finds what is under the pointer again, and each
 * message passing under it changes :hover (its time and actions show on hover), which restyles
 * it: in a 2,000-message chat that was about a third of the main-thread work per wheel step.
 *
 * @example useWheelQuiet(scrollerRef);
 */
export function useWheelQuiet(target: RefObject<HTMLElement>): void {
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = () => {
      timer = undefined;
      delete el.dataset.wheeling;
    };
    const onWheel = () => {
      if (timer === undefined) el.dataset.wheeling = '';
      else clearTimeout(timer);
      timer = setTimeout(end, WHEEL_QUIET_MS);
    };
    el.addEventListener('wheel', onWheel, { passive: true });
    return () => {
      el.removeEventListener('wheel', onWheel);
      if (timer !== undefined) clearTimeout(timer);
      delete el.dataset.wheeling;
    };
  }, [target]);
}
