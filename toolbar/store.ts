/**
 * The toolbar's store: a zustand/vanilla store that mirrors the sync client's view (`sync`, never
 * edited here: the server owns agent state) next to the UI's own state (panel open and size,
 * draft, attachments, picked elements, picking mode, alerts). UI preferences (open, size, theme)
 * are persisted in localStorage, and the draft and a waiting message in this tab's sessionStorage
 * across a reload (page/keep-draft.ts); everything about chats comes from the server again.
 */
import * as v from 'valibot';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SelectedElement } from '../shared/schemas.ts';
import type { SyncClient, SyncView } from '../shared/sync-client.ts';
import { clampSize, loadPrefs, PREFS_KEY, type PrefsStorage, type Theme, type UiPrefs } from './prefs.ts';
import { connectionKind, isConnectionBlocker } from './selectors.ts';

// The prefs live in prefs.ts, which the launcher reads at page load; re-exported for the panel's code.
export { clampSize, DEFAULT_PREFS, loadPrefs, PREFS_KEY, SIZE_BOUNDS, THEMES, type PrefsStorage, type Theme, type UiPrefs } from './prefs.ts';

/**
 * A file in the composer. A schema, not only a type, because a kept draft is read back from
 * storage the page can write to (page/keep-draft.ts).
 */
export const AttachmentSchema = v.object({
  id: v.string(),
  kind: v.picklist(['image', 'file']),
  name: v.string(),
  mimeType: v.string(),
  /** A base64 data URL, within LIMITS.maxDataUrlLength. */
  dataUrl: v.pipe(v.string(), v.startsWith('data:')),
});
export type Attachment = v.InferOutput<typeof AttachmentSchema>;

/** An element the developer picked: its description at pick time and the live node, while it exists. */
export interface PickedElement {
  id: string;
  info: SelectedElement;
  node: Element | null;
}

/** An outline drawn over a page element by `highlight_element`, until `until` (epoch ms). */
export interface Highlight {
  id: string;
  node: Element;
  label: string;
  until: number;
}

/**
 * A message sent while the agent worked: it waits in the toolbar and goes out when the run ends
 * (see send-queue.ts). `chatId` is the chat it was written in (null: none was open).
 */
export const QueuedMessageSchema = v.object({
  chatId: v.nullable(v.string()),
  draft: v.string(),
  attachments: v.array(AttachmentSchema),
  agent: v.nullable(v.string()),
  clientMessageId: v.string(),
});
export type QueuedMessage = v.InferOutput<typeof QueuedMessageSchema>;

export interface ToolbarState extends UiPrefs {
  /** The sync client's view, replaced (never edited) whenever the client publishes a new one. */
  sync: SyncView;
  draft: string;
  attachments: Attachment[];
  /** Files being read, converted or fitted to one message: sending waits for them. */
  attachmentsInProgress: number;
  /** Reused while the same content is retried, so a retry cannot post the message twice. */
  pendingClientMessageId: string | null;
  /** The message waiting for the run in progress to end. */
  queued: QueuedMessage | null;
  /** The question of the user's that the box holds a new version of (Edit): sending branches from it. */
  editing: string | null;
  sending: boolean;
  composerError: string | null;
  /** Offline although the server answers HTTP: it refused this toolbar (token or origin). */
  serverRefused: boolean;
  /** The page's own origin (`location.origin`), which the server may refuse; null outside a page. */
  pageOrigin: string | null;
  /** The agent server's origin when the page's Content-Security-Policy refused the connection to it. */
  blockedByPagePolicy: string | null;
  /** The agent chosen in the composer for one chat; other chats use their default. */
  agentChoice: { chatId: string | null; agent: string } | null;
  picked: PickedElement[];
  /**
   * The picks of the last message that went with any: they leave the box once sent, and the page
   * tools (`get_selected_elements`, `take_screenshot`'s `pick`) read them while the box has none.
   */
  sentPicks: PickedElement[];
  picking: boolean;
  /** The element under the pointer while picking. */
  hovered: Element | null;
  highlights: Highlight[];
  /** The last refusal of a chat action (create, switch, rename, delete, stop), shown until dismissed. */
  chatError: string | null;
}

export interface ToolbarActions {
  setOpen(open: boolean): void;
  setSize(width: number, height: number): void;
  setTheme(theme: Theme): void;
  setDraft(draft: string): void;
  addAttachments(attachments: Attachment[]): void;
  removeAttachment(id: string): void;
  /** Puts a smaller version of an attachment in its place (same id); none when it was removed meanwhile. */
  replaceAttachment(next: Attachment): void;
  /** Counts a batch of files starting (true) or done (false) being prepared. */
  noteAttachmentsInProgress(started: boolean): void;
  setAgentChoice(chatId: string | null, agent: string): void;
  setPicking(picking: boolean): void;
  setHovered(el: Element | null): void;
  /** Adds a picked element, or removes it when that node is already picked (a second click unpicks). */
  togglePicked(element: PickedElement): void;
  removePicked(id: string): void;
  /** Unpicks every element. */
  clearPicked(): void;
  addHighlight(highlight: Highlight): void;
  removeHighlight(id: string): void;
  setComposerError(message: string | null): void;
  setChatError(message: string | null): void;
}

export type ToolbarStoreState = ToolbarState & ToolbarActions;
export type ToolbarStore = StoreApi<ToolbarStoreState>;

/** Picked elements are sent with each message; the protocol allows this many. */
export const MAX_PICKED = 50;

/** What a fresh toolbar holds besides its preferences and the server's view. */
export const INITIAL_UI_STATE: Omit<ToolbarState, keyof UiPrefs | 'sync'> = {
  draft: '',
  attachments: [],
  attachmentsInProgress: 0,
  pendingClientMessageId: null,
  queued: null,
  editing: null,
  sending: false,
  composerError: null,
  serverRefused: false,
  pageOrigin: null,
  blockedByPagePolicy: null,
  agentChoice: null,
  picked: [],
  sentPicks: [],
  picking: false,
  hovered: null,
  highlights: [],
  chatError: null,
};
const MAX_HIGHLIGHTS = 20;

function savePrefs(storage: PrefsStorage | null, prefs: UiPrefs): void {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Quota or privacy mode: prefs are a convenience, the toolbar works without them.
  }
}

export interface CreateToolbarStoreOptions {
  client: Pick<SyncClient, 'getSnapshot' | 'subscribe'>;
  storage?: PrefsStorage | null;
}

/**
 * Creates the store and binds it to the client; `dispose()` unbinds.
 *
 * @example
 * const { store, dispose } = createToolbarStore({ client, storage: window.localStorage });
 * store.getState().setOpen(true);
 */
export function createToolbarStore(options: CreateToolbarStoreOptions): { store: ToolbarStore; dispose(): void } {
  const { client } = options;
  const storage = options.storage ?? null;
  const prefs = loadPrefs(storage);

  const store = createStore<ToolbarStoreState>()((set, get) => ({
    ...prefs,
    sync: client.getSnapshot(),
    ...INITIAL_UI_STATE,

    // Picking goes on with the panel closed would eat the page's clicks with nothing on screen to say why.
    setOpen: (open) => set(open ? { open } : { open, picking: false, hovered: null }),
    setSize: (width, height) => set(clampSize(width, height)),
    setTheme: (theme) => set({ theme }),
    // Changing what will be sent makes it a new message: it gets a new clientMessageId.
    setDraft: (draft) => set({ draft, pendingClientMessageId: null }),
    addAttachments: (attachments) =>
      set({ attachments: [...get().attachments, ...attachments], pendingClientMessageId: null, composerError: null }),
    removeAttachment: (id) =>
      set({ attachments: get().attachments.filter((a) => a.id !== id), pendingClientMessageId: null }),
    noteAttachmentsInProgress: (started) => set({ attachmentsInProgress: Math.max(0, get().attachmentsInProgress + (started ? 1 : -1)) }),
    replaceAttachment: (next) => {
      if (!get().attachments.some((a) => a.id === next.id)) return;
      set({ attachments: get().attachments.map((a) => (a.id === next.id ? next : a)), pendingClientMessageId: null });
    },
    setAgentChoice: (chatId, agent) => set({ agentChoice: { chatId, agent }, pendingClientMessageId: null }),
    setPicking: (picking) => set(picking ? { picking } : { picking, hovered: null }),
    setHovered: (hovered) => {
      if (get().hovered !== hovered) set({ hovered });
    },
    togglePicked: (element) => {
      const picked = get().picked;
      const existing = element.node ? picked.find((p) => p.node === element.node) : undefined;
      if (existing) {
        set({ picked: picked.filter((p) => p !== existing), pendingClientMessageId: null });
        return;
      }
      if (picked.length >= MAX_PICKED) {
        set({ composerError: `At most ${MAX_PICKED} elements can be selected` });
        return;
      }
      set({ picked: [...picked, element], pendingClientMessageId: null });
    },
    removePicked: (id) => set({ picked: get().picked.filter((p) => p.id !== id), pendingClientMessageId: null }),
    clearPicked: () => set({ picked: [], pendingClientMessageId: null }),
    addHighlight: (highlight) => set({ highlights: [...get().highlights, highlight].slice(-MAX_HIGHLIGHTS) }),
    removeHighlight: (id) => set({ highlights: get().highlights.filter((h) => h.id !== id) }),
    setComposerError: (composerError) => set({ composerError }),
    setChatError: (chatError) => set({ chatError }),
  }));

  const unsubscribeClient = client.subscribe(() => {
    const sync = client.getSnapshot();
    const s = store.getState();
    if (s.sync === sync) return;
    // An "offline" error from a send tried while the connection was down is stale once it is back.
    const stale = s.composerError !== null && isConnectionBlocker(s.composerError) && connectionKind(sync.status) === 'connected' && sync.state !== null;
    store.setState(stale ? { sync, composerError: null } : { sync });
  });
  // A view published between createStore and subscribe would otherwise be missed.
  if (store.getState().sync !== client.getSnapshot()) store.setState({ sync: client.getSnapshot() });

  let saved: UiPrefs = prefs;
  const unsubscribePrefs = store.subscribe((s) => {
    if (s.open === saved.open && s.width === saved.width && s.height === saved.height && s.theme === saved.theme) return;
    saved = { open: s.open, width: s.width, height: s.height, theme: s.theme };
    savePrefs(storage, saved);
  });

  return {
    store,
    dispose() {
      unsubscribeClient();
      unsubscribePrefs();
    },
  };
}
