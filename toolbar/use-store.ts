/**
 * Preact hooks over a zustand vanilla store and the message hub (message-hub.ts): the component
 * re-renders only when its selected slice changes (by `Object.is`, or the `equals` given), which
 * keeps streaming re-renders local.
 */
import { useLayoutEffect, useReducer, useRef } from 'preact/hooks';
import type { StoreApi } from 'zustand/vanilla';
import type { Message } from '../shared/schemas.ts';
import type { MessageHub } from './message-hub.ts';

/**
 * The value `read` returns, re-rendering when it changes (by `equals`) after `subscribe` reports a
 * change. `read` and `equals` are the latest render's; `subscribe` is the one of the render in
 * which `key` last changed.
 */
function useSubscribed<T>(
  read: () => T,
  subscribe: (onChange: () => void) => () => void,
  equals: (a: T, b: T) => boolean,
  key: readonly unknown[],
): T {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const value = read();
  const latest = useRef({ read, equals, value });
  latest.current = { read, equals, value };

  useLayoutEffect(() => {
    const check = () => {
      const { read: get, equals: same, value: shown } = latest.current;
      if (!same(shown, get())) rerender(0);
    };
    // The source may have changed between this render and the subscription.
    check();
    return subscribe(check);
  }, key);

  return value;
}

/**
 * @example
 * const draft = useStore(store, (s) => s.draft);
 */
export function useStore<S, T>(store: StoreApi<S>, selector: (state: S) => T, equals: (a: T, b: T) => boolean = Object.is): T {
  return useSubscribed(() => selector(store.getState()), store.subscribe, equals, [store]);
}

/**
 * The message at `index` with id `id` (null when another is there), re-rendering only when that
 * message is replaced.
 *
 * @example
 * const message = useMessageAt(hub, 3, 'm4');
 */
export function useMessageAt(hub: MessageHub, index: number, id: string): Message | null {
  return useSubscribed(() => hub.read(index, id), (onChange) => hub.watch(index, id, onChange), Object.is, [hub, index, id]);
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
