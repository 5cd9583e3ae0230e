/**
 * A message sent while the agent works waits in the toolbar and goes out when the run ends, as in
 * the coding agents' own terminals (and `agentbar chat`): the server takes one run at a time and
 * answers `busy` otherwise, and a thought typed during a reply should not bounce off it.
 *
 * One message waits; sending again while it waits adds to it. Stop, Edit, or leaving its chat put
 * it back in the box (before anything typed since), so nothing typed is lost or sent where the user
 * no longer looks. Like the draft, it is kept across a reload of the page (page/keep-draft.ts).
 */
import { makeId } from '../shared/ids.ts';
import { buildContent } from './build-content.ts';
import { selectSendBlocker } from './selectors.ts';
import type { ToolbarState, ToolbarStore } from './store.ts';

/**
 * Moves the composer's text and attachments into the queue, after a message already waiting.
 * Returns false, with the reason in the composer, when the two together cannot be one message.
 *
 * @example
 * if (store.getState().sync.state?.run) queueComposer(store, 'wisp/coder');
 */
export function queueComposer(store: ToolbarStore, agent: string | null): boolean {
  const s = store.getState();
  const waiting = s.queued;
  const draft = waiting ? joinText(waiting.draft, s.draft) : s.draft;
  const attachments = waiting ? [...waiting.attachments, ...s.attachments] : s.attachments;
  const built = buildContent(draft, attachments);
  if (!built.ok) {
    if (built.error) s.setComposerError(waiting ? `Not added to the queued message: ${lowerFirst(built.error)}` : built.error);
    return false;
  }
  store.setState({
    queued: { chatId: s.sync.state?.activeChatId ?? null, draft, attachments, agent: waiting?.agent ?? agent, clientMessageId: makeId('cm') },
    draft: '',
    attachments: [],
    composerError: null,
    pendingClientMessageId: null,
  });
  return true;
}

/**
 * Puts the waiting message back in the box, before whatever was typed since. Nothing while it is
 * being sent: it is no longer the toolbar's to take back.
 */
export function unqueue(store: ToolbarStore): void {
  const s = store.getState();
  if (s.queued && !s.sending) store.setState(takeBack(s));
}

/**
 * The store's change that puts the waiting message back in the box, for a caller that sets more in
 * the same change (one change: the store's watchers never see half of it).
 */
export function takeBack(s: ToolbarState): Partial<ToolbarState> {
  const waiting = s.queued;
  if (!waiting) return {};
  return {
    queued: null,
    draft: joinText(waiting.draft, s.draft),
    attachments: [...waiting.attachments, ...s.attachments],
    pendingClientMessageId: null,
  };
}

/** Whether the waiting message can go now: nothing runs, the connection is up, nothing else is on its way. */
export function isQueueReady(store: ToolbarStore): boolean {
  const s = store.getState();
  return !!s.queued && !s.sending && !!s.sync.state && !s.sync.state.run && selectSendBlocker(s) === null;
}

/**
 * Watches the store: sends the waiting message once the run ends (`send`, the actions' sender),
 * and puts it back in the box when the user leaves its chat. Returns the unsubscribe.
 *
 * @example
 * const unbind = bindSendQueue(store, () => actions.sendQueued());
 */
export function bindSendQueue(store: ToolbarStore, send: () => Promise<unknown>): () => void {
  const check = (): void => {
    const s = store.getState();
    if (!s.queued || s.sending || !s.sync.state) return;
    if (s.sync.state.activeChatId !== s.queued.chatId) unqueue(store);
    else if (isQueueReady(store)) void send();
  };
  const unsubscribe = store.subscribe(check);
  check();
  return unsubscribe;
}

function joinText(first: string, second: string): string {
  if (!first.trim()) return second;
  if (!second.trim()) return first;
  return `${first}\n\n${second}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
