import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, MAX_PICKED, PREFS_KEY, createToolbarStore, loadPrefs, type PickedElement } from './store.ts';
import { CONNECTING_VIEW, fakeClient, makeState } from './test-fixtures.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}


function picked(id: string, node: Element | null = null): PickedElement {
  return {
    id,
    node,
    info: { tagName: 'div', xpath: '/html/body/div', attributes: {}, textContent: '', boundingClientRect: { x: 0, y: 0, width: 1, height: 1 } },
  };
}

describe('createToolbarStore', () => {
  it('clears an "offline" composer error once the connection is back, and keeps other errors', () => {
    const client = fakeClient({ ...CONNECTING_VIEW, status: 'offline' });
    const { store } = createToolbarStore({ client });
    store.getState().setComposerError('Offline: waiting for the agent server');
    client.publish({ status: 'connecting' });
    expect(store.getState().composerError).toBe('Offline: waiting for the agent server');
    client.publish({ status: 'connected', state: makeState(), rev: 1 });
    expect(store.getState().composerError).toBeNull();
    store.getState().setComposerError('The agent is already working; wait or press Stop');
    client.publish({ rev: 2, state: makeState() });
    expect(store.getState().composerError).toBe('The agent is already working; wait or press Stop');
  });

  it('clears every picked element at once', () => {
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    store.getState().togglePicked(picked('a'));
    store.getState().togglePicked(picked('b'));
    store.getState().clearPicked();
    expect(store.getState().picked).toEqual([]);
  });

  it('mirrors every view the sync client publishes, by identity', () => {
    const client = fakeClient(CONNECTING_VIEW);
    const { store } = createToolbarStore({ client });
    expect(store.getState().sync).toBe(CONNECTING_VIEW);
    const state = makeState();
    client.publish({ status: 'connected', state, rev: 3 });
    expect(store.getState().sync.status).toBe('connected');
    expect(store.getState().sync.state).toBe(state);
  });

  it('stops mirroring after dispose', () => {
    const client = fakeClient(CONNECTING_VIEW);
    const { store, dispose } = createToolbarStore({ client });
    dispose();
    client.publish({ status: 'offline' });
    expect(store.getState().sync.status).toBe('connecting');
    expect(client.listenerCount()).toBe(0);
  });

  it('persists open, size and theme, and nothing else', () => {
    const storage = memoryStorage();
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW), storage });
    store.getState().setDraft('secret draft');
    expect(storage.data.size).toBe(0);
    store.getState().setOpen(true);
    store.getState().setSize(500, 700);
    store.getState().setTheme('light');
    expect(JSON.parse(storage.data.get(PREFS_KEY)!)).toEqual({ open: true, width: 500, height: 700, theme: 'light' });
    const again = createToolbarStore({ client: fakeClient(CONNECTING_VIEW), storage }).store.getState();
    expect([again.open, again.width, again.height, again.theme, again.draft]).toEqual([true, 500, 700, 'light', '']);
  });

  it('keeps the panel size within bounds', () => {
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    store.getState().setSize(10, 99_999);
    expect([store.getState().width, store.getState().height]).toEqual([320, 1200]);
  });

  it('gives edited content a new clientMessageId', () => {
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    store.setState({ pendingClientMessageId: 'cm_1' });
    store.getState().setDraft('changed');
    expect(store.getState().pendingClientMessageId).toBeNull();
    store.setState({ pendingClientMessageId: 'cm_2' });
    store.getState().togglePicked(picked('e1'));
    expect(store.getState().pendingClientMessageId).toBeNull();
  });

  it('unpicks an element clicked a second time', () => {
    const node = {} as Element;
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    store.getState().togglePicked(picked('e1', node));
    expect(store.getState().picked.map((p) => p.id)).toEqual(['e1']);
    store.getState().togglePicked(picked('e2', node));
    expect(store.getState().picked).toEqual([]);
  });

  it(`refuses more than ${MAX_PICKED} picked elements with a message`, () => {
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    for (let i = 0; i <= MAX_PICKED; i++) store.getState().togglePicked(picked(`e${i}`, {} as Element));
    expect(store.getState().picked).toHaveLength(MAX_PICKED);
    expect(store.getState().composerError).toMatch(/At most 50 elements/);
  });

  it('forgets the hovered element when picking ends', () => {
    const { store } = createToolbarStore({ client: fakeClient(CONNECTING_VIEW) });
    store.getState().setPicking(true);
    store.getState().setHovered({} as Element);
    store.getState().setPicking(false);
    expect(store.getState().hovered).toBeNull();
  });
});

describe('loadPrefs', () => {
  it('falls back to defaults for missing, broken or hostile prefs', () => {
    expect(loadPrefs(null)).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(memoryStorage({ [PREFS_KEY]: '{not json' }))).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(memoryStorage({ [PREFS_KEY]: '{"open":"yes","width":1e9,"height":"x","theme":"sepia"}' }))).toEqual({
      open: false,
      width: 960,
      height: 560,
      theme: 'system',
    });
    // Prefs saved before there was a theme.
    expect(loadPrefs(memoryStorage({ [PREFS_KEY]: '{"open":true,"width":400,"height":600}' }))).toEqual({ open: true, width: 400, height: 600, theme: 'system' });
    const throwing = { getItem: () => { throw new Error('denied'); }, setItem: () => {} };
    expect(loadPrefs(throwing)).toEqual(DEFAULT_PREFS);
  });
});
