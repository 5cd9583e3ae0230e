/**
 * A Preact hook over a zustand vanilla store: the component re-renders only when its selected
 * slice changes (by `Object.is`, or the `equals` given), which keeps streaming re-renders local.
 */
import { useLayoutEffect, useReducer, useRef } from 'preact/hooks';
import type { StoreApi } from 'zustand/vanilla';
import type { Message } from '../shared/schemas.ts';
import type { MessageHub } from './message-hub.ts';

/**
 * @example
 * const draft = useStore(store, (s) => s.draft);
 */
export function useStore<S, T>(store: StoreApi<S>, selector: (state: S) => T, equals: (a: T, b: T) => boolean = Object.is): T {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const selected = selector(store.getState());
  const latest = useRef({ selector, equals, selected });
  latest.current = { selector, equals, selected };

  useLayoutEffect(() => {
    const check = () => {
      const { selector: select, equals: same, selected: shown } = latest.current;
      if (!same(shown, select(store.getState()))) rerender(0);
    };
    // The store may have changed between this render and the subscription.
    check();
    return store.subscribe(check);
  }, [store]);

  return selected;
}

/**
 * The message at `index` with id `id` (null when another is there), re-rendering only when that
 * message is replaced.
 *
 * @example
 * const message = useMessageAt(hub, 3, 'm4');
 */
export function useMessageAt(hub: MessageHub, index: number, id: string): Message | null {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const message = hub.read(index, id);
  const shown = useRef(message);
  shown.current = message;

  useLayoutEffect(() => {
    const stop = hub.watch(index, id, () => rerender(0));
    // The message may have changed between this render and the watch.
    if (hub.read(index, id) !== shown.current) rerender(0);
    return stop;
  }, [hub, index, id]);

  return message;
}

/** Equality for selectors returning small objects or arrays: same keys, `Object.is` values. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) {
      return false;
    }
  }
  return true;
}
