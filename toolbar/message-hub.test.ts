import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { Message } from '../shared/schemas.ts';
import { createMessageHub } from './message-hub.ts';

function text(id: string, value: string): Message {
  return { id, role: 'assistant', content: [{ type: 'text', text: value }] } as Message;
}

function setup(initial: Message[]) {
  const store = createStore<{ messages: readonly Message[]; other: number }>(() => ({ messages: initial, other: 0 }));
  let subscriptions = 0;
  const subscribe = store.subscribe;
  store.subscribe = (listener) => {
    subscriptions++;
    const stop = subscribe(listener);
    return () => {
      subscriptions--;
      stop();
    };
  };
  const hub = createMessageHub(store, (s) => s.messages);
  return { store, hub, subscriptions: () => subscriptions };
}

describe('message hub', () => {
  it('calls only the slot whose message a delta replaced', () => {
    const a = text('a', 'one');
    const b = text('b', 'two');
    const { store, hub } = setup([a, b]);
    const calls: string[] = [];
    hub.watch(0, 'a', () => calls.push('a'));
    hub.watch(1, 'b', () => calls.push('b'));

    const b2 = text('b', 'two and more');
    store.setState({ messages: [a, b2] });

    expect(calls).toEqual(['b']);
    expect(hub.read(1, 'b')).toBe(b2);
    expect(hub.read(0, 'a')).toBe(a);
  });

  it('calls no slot when the store changes but the messages do not', () => {
    const { store, hub } = setup([text('a', 'one')]);
    const calls: string[] = [];
    hub.watch(0, 'a', () => calls.push('a'));

    store.setState({ other: 1 });
    store.setState({ messages: [...store.getState().messages] });

    expect(calls).toEqual([]);
  });

  it('reads null, and tells the slot, when another message takes its index', () => {
    const { store, hub } = setup([text('a', 'one'), text('b', 'two')]);
    const calls: string[] = [];
    hub.watch(1, 'b', () => calls.push('b'));

    store.setState({ messages: [text('a', 'one'), text('c', 'three')] });

    expect(calls).toEqual(['b']);
    expect(hub.read(1, 'b')).toBeNull();
    store.setState({ messages: [text('a', 'one'), text('d', 'four')] });
    expect(calls).toEqual(['b']);
  });

  it('holds one store subscription however many slots watch, and none after the last stops', () => {
    const { store, hub, subscriptions } = setup([text('a', 'one'), text('b', 'two')]);
    expect(subscriptions()).toBe(0);
    const stops = [hub.watch(0, 'a', () => {}), hub.watch(1, 'b', () => {})];
    expect(subscriptions()).toBe(1);

    const calls: string[] = [];
    stops[0]!();
    const stopLate = hub.watch(1, 'b', () => calls.push('late'));
    stops[1]!();
    store.setState({ messages: [text('a', 'one'), text('b', 'changed')] });
    expect(calls).toEqual(['late']);
    expect(subscriptions()).toBe(1);
    stopLate();
    expect(subscriptions()).toBe(0);
  });

  it('starts from the store as it is when the first slot watches', () => {
    const { store, hub } = setup([text('a', 'one')]);
    const a2 = text('a', 'one more');
    store.setState({ messages: [a2] });
    const calls: string[] = [];
    hub.watch(0, 'a', () => calls.push('a'));

    // The same array again: nothing to tell.
    store.setState({ other: 2 });
    expect(calls).toEqual([]);
    expect(hub.read(0, 'a')).toBe(a2);
  });
});
