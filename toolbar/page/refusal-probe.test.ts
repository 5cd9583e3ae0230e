import { describe, expect, it } from 'vitest';
import { REFUSED_MESSAGE, selectSendBlocker } from '../selectors.ts';
import { createToolbarStore } from '../store.ts';
import { CONNECTING_VIEW, fakeClient, makeState } from '../test-fixtures.ts';
import { bindRefusalProbe, healthUrlOf } from './refusal-probe.ts';

/** A window whose fetch answers as told and whose timers run when asked. */
function fakeWindow(answers: () => boolean) {
  const timers = new Map<number, () => void>();
  let next = 1;
  const fetched: string[] = [];
  return {
    fetched,
    timers,
    win: {
      fetch: (url: string) => {
        fetched.push(url);
        return answers() ? Promise.resolve(new Response(null)) : Promise.reject(new TypeError('Failed to fetch'));
      },
      setTimeout: (fn: () => void) => {
        timers.set(next, fn);
        return next++;
      },
      clearTimeout: (id: number) => void timers.delete(id),
    } as unknown as Window,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('bindRefusalProbe', () => {
  it('turns "offline" into "refused" when the server answers HTTP, and back when it connects', async () => {
    const client = fakeClient(CONNECTING_VIEW);
    const { store } = createToolbarStore({ client });
    const w = fakeWindow(() => true);
    const stop = bindRefusalProbe(w.win, store, 'ws://127.0.0.1:4477/ws');
    client.publish({ status: 'offline', attempt: 3 });
    await flush();
    expect(w.fetched).toEqual(['http://127.0.0.1:4477/health']);
    expect(store.getState().serverRefused).toBe(true);
    expect(selectSendBlocker(store.getState())).toBe(REFUSED_MESSAGE);
    // It keeps asking while offline, and stops once connected.
    expect(w.timers.size).toBe(1);
    client.publish({ status: 'connected', state: makeState(), attempt: 0 });
    expect(store.getState().serverRefused).toBe(false);
    expect(w.timers.size).toBe(0);
    stop();
  });

  it('stays "waiting for the agent server" when nothing answers', async () => {
    const client = fakeClient(CONNECTING_VIEW);
    const { store } = createToolbarStore({ client });
    const w = fakeWindow(() => false);
    bindRefusalProbe(w.win, store, 'wss://agent.example:9000/ws?x=1');
    client.publish({ status: 'offline', attempt: 3 });
    await flush();
    expect(w.fetched).toEqual(['https://agent.example:9000/health']);
    expect(store.getState().serverRefused).toBe(false);
    expect(selectSendBlocker(store.getState())).toBe('Offline: waiting for the agent server');
  });

  it('does not probe for a client that stopped for good (refused for good, or blocked by the page)', async () => {
    const client = fakeClient(CONNECTING_VIEW);
    const { store } = createToolbarStore({ client });
    const w = fakeWindow(() => true);
    bindRefusalProbe(w.win, store, 'ws://127.0.0.1:4477/ws');
    client.publish({ status: 'closed' });
    await flush();
    expect(w.fetched).toEqual([]);
    expect(selectSendBlocker(store.getState())).toBe('Disconnected from the agent server');
  });

  it('derives the health address from the socket address', () => {
    expect(healthUrlOf('ws://localhost:4477/ws')).toBe('http://localhost:4477/health');
  });
});
