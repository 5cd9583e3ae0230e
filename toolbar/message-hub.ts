/**
 * One store subscription for every rendered message of the list. Each slot used to subscribe to
 * the store itself, so a streamed delta woke all 60–70 of them to find the one message that
 * changed. The hub wakes once per store change, returns at once when the messages array is the
 * same, and otherwise compares each watched index by identity, calling only the slots whose
 * message was replaced. Framework-free: `useMessageAt` (use-store.ts) binds it to Preact.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { Message } from '../shared/schemas.ts';

export interface MessageHub {
  /** The message at `index` now, if its id is `id`; null when another message (or none) is there. */
  read(index: number, id: string): Message | null;
  /**
   * Calls `onChange` after the message `read(index, id)` returns is replaced (a delta, an edit,
   * another message moving to that index). Returns the function that stops watching.
   */
  watch(index: number, id: string, onChange: () => void): () => void;
}

interface Watcher {
  index: number;
  id: string;
  value: Message | null;
  onChange(): void;
}

function messageAt(messages: readonly Message[], index: number, id: string): Message | null {
  const m = messages[index];
  return m !== undefined && m.id === id ? m : null;
}

/**
 * Subscribes to the store only while something watches.
 *
 * @example
 * const hub = createMessageHub(store, selectMessages);
 * const stop = hub.watch(3, 'm4', () => rerender());
 */
export function createMessageHub<S>(store: StoreApi<S>, selectMessages: (s: S) => readonly Message[]): MessageHub {
  const watchers = new Set<Watcher>();
  let messages: readonly Message[] = [];
  let unsubscribe: (() => void) | null = null;

  const onStore = (state: S) => {
    const next = selectMessages(state);
    if (next === messages) return;
    messages = next;
    for (const w of watchers) {
      const value = messageAt(next, w.index, w.id);
      if (value === w.value) continue;
      w.value = value;
      w.onChange();
    }
  };

  return {
    read: (index, id) => messageAt(selectMessages(store.getState()), index, id),
    watch(index, id, onChange) {
      if (unsubscribe === null) {
        messages = selectMessages(store.getState());
        unsubscribe = store.subscribe(onStore);
      }
      const watcher: Watcher = { index, id, value: messageAt(messages, index, id), onChange };
      watchers.add(watcher);
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && unsubscribe !== null) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
  };
}
