import { describe, expect, it } from 'vitest';
import { createToolbarStore, type Attachment, type QueuedMessage } from '../store.ts';
import { CONNECTING_VIEW, fakeClient } from '../test-fixtures.ts';
import { DRAFT_KEY, restoreDraft, saveDraft, type DraftStorage } from './keep-draft.ts';

/** A sessionStorage that refuses values over `quota` characters, as a full one does. */
function memoryStorage(quota = Infinity): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      if (value.length > quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => void items.delete(key),
  };
}

const freshStore = () => createToolbarStore({ client: fakeClient(CONNECTING_VIEW) }).store;
const SHOT: Attachment = { id: 'a1', kind: 'image', name: 'shot.png', mimeType: 'image/png', dataUrl: `data:image/png;base64,${'A'.repeat(2000)}` };
const WAITING: QueuedMessage = { chatId: 'c1', draft: 'then the footer', attachments: [SHOT], agent: 'wisp/coder', clientMessageId: 'cm_1' };

describe('the draft across a reload', () => {
  it('comes back with its attachments and the waiting message in the next page, once', () => {
    const storage = memoryStorage();
    saveDraft(storage, { draft: 'half a thought', attachments: [SHOT], queued: WAITING });
    const next = freshStore();
    expect(restoreDraft(storage, next)).toBe(true);
    expect(next.getState()).toMatchObject({ draft: 'half a thought', attachments: [SHOT], queued: WAITING });
    // Restored once: a later reload with nothing typed starts empty.
    expect(storage.items.has(DRAFT_KEY)).toBe(false);
    expect(restoreDraft(storage, freshStore())).toBe(false);
  });

  it('keeps the text alone when the attachments do not fit in storage', () => {
    const storage = memoryStorage(1000);
    saveDraft(storage, { draft: 'half a thought', attachments: [SHOT], queued: WAITING });
    const next = freshStore();
    restoreDraft(storage, next);
    expect(next.getState()).toMatchObject({ draft: 'half a thought', attachments: [], queued: { ...WAITING, attachments: [] } });
  });

  it('keeps nothing when nothing was typed, and drops what it cannot read', () => {
    const storage = memoryStorage();
    storage.setItem(DRAFT_KEY, JSON.stringify({ draft: 'old' }));
    saveDraft(storage, { draft: '', attachments: [], queued: null });
    expect(storage.items.has(DRAFT_KEY)).toBe(false);

    for (const bad of ['{not json', JSON.stringify({ draft: 1, attachments: [], queued: null }), JSON.stringify({ draft: 'x', attachments: [{ ...SHOT, dataUrl: 'javascript:alert(1)' }], queued: null })]) {
      storage.setItem(DRAFT_KEY, bad);
      const next = freshStore();
      expect(restoreDraft(storage, next)).toBe(false);
      expect(next.getState()).toMatchObject({ draft: '', attachments: [], queued: null });
      expect(storage.items.has(DRAFT_KEY)).toBe(false);
    }
  });
});
