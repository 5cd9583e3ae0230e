/**
 * What the developer typed, and a message waiting for the agent, survive a reload of the page. The
 * agent this toolbar talks to edits the app it sits in, and a change the dev server cannot swap in
 * place reloads the page under a half-written message. Kept in sessionStorage (this tab only) from
 * `pagehide` to the next mount, then dropped: attachments too when they fit, else the text alone.
 * Picked elements are not kept: their nodes are gone with the page.
 */
import * as v from 'valibot';
import { AttachmentSchema, QueuedMessageSchema, type ToolbarState, type ToolbarStore } from '../store.ts';

export const DRAFT_KEY = 'agentbar:draft';

/** The subset of `Storage` the keeper uses. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

// Read back from storage the page can write to: checked like any input, never cast.
const KeptDraftSchema = v.object({
  draft: v.string(),
  attachments: v.array(AttachmentSchema),
  queued: v.nullable(QueuedMessageSchema),
});
type KeptDraft = v.InferOutput<typeof KeptDraftSchema>;

/**
 * Writes the composer's text, attachments and waiting message to `storage`, or clears it when
 * there is nothing to keep. Quota exceeded with the attachments: the text alone is kept.
 *
 * @example saveDraft(window.sessionStorage, store.getState());
 */
export function saveDraft(storage: DraftStorage, s: Pick<ToolbarState, 'draft' | 'attachments' | 'queued'>): void {
  const kept: KeptDraft = { draft: s.draft, attachments: s.attachments, queued: s.queued };
  try {
    if (!kept.draft && !kept.attachments.length && !kept.queued) {
      storage.removeItem(DRAFT_KEY);
      return;
    }
    try {
      storage.setItem(DRAFT_KEY, JSON.stringify(kept));
    } catch {
      const textOnly: KeptDraft = { draft: kept.draft, attachments: [], queued: kept.queued && { ...kept.queued, attachments: [] } };
      storage.setItem(DRAFT_KEY, JSON.stringify(textOnly));
    }
  } catch {
    // Storage full or forbidden: the draft is a convenience, the toolbar works without it.
  }
}

/**
 * Puts a kept draft back in a fresh toolbar's composer and drops it from `storage` (it is restored
 * once). Anything unreadable is dropped. Returns whether something was restored.
 *
 * @example restoreDraft(window.sessionStorage, store);
 */
export function restoreDraft(storage: DraftStorage, store: ToolbarStore): boolean {
  let raw: unknown = null;
  try {
    const text = storage.getItem(DRAFT_KEY);
    storage.removeItem(DRAFT_KEY);
    raw = text ? JSON.parse(text) : null;
  } catch {
    return false;
  }
  const kept = v.safeParse(KeptDraftSchema, raw);
  if (!kept.success) return false;
  const { draft, attachments, queued } = kept.output;
  store.setState({ draft, attachments, queued });
  return true;
}

/**
 * Restores the draft kept by the page before this one, and keeps this page's when it goes.
 * Returns the unbind.
 *
 * @example const unbind = bindDraftKeeper(window, store);
 */
export function bindDraftKeeper(win: Window, store: ToolbarStore): () => void {
  let storage: DraftStorage;
  try {
    storage = win.sessionStorage;
  } catch {
    return () => {}; // sandboxed frames and some privacy modes throw on access
  }
  restoreDraft(storage, store);
  const save = () => saveDraft(storage, store.getState());
  win.addEventListener('pagehide', save);
  return () => win.removeEventListener('pagehide', save);
}
