/**
 * Everything the toolbar asks of the server goes through here: each action sends one request (or
 * two, for a first message without a chat) and reports a refusal as text for an inline alert.
 * None of them touches agent state: the server's patches do that.
 */
import { makeId } from '../shared/ids.ts';
import { LIMITS } from '../shared/limits.ts';
import { RequestError } from '../shared/request-table.ts';
import type { BrowserMetadata, SelectedElement, UserContentPart, UserMessage } from '../shared/schemas.ts';
import type { SyncClient, SyncView } from '../shared/sync-client.ts';
import { buildContent } from './build-content.ts';
import { addPickPictures, describeMissedPictures, type PickPictures } from './screenshot/pick-pictures.ts';
import { selectChatsSorted, selectComposerAgent, selectComposerBlocker, selectMessages, selectSendBlocker } from './selectors.ts';
import { isQueueReady, queueComposer, takeBack, unqueue } from './send-queue.ts';
import type { PickedElement, ToolbarStore } from './store.ts';

export interface ActionsEnv {
  client: Pick<SyncClient, 'request'>;
  store: ToolbarStore;
  /** Browser metadata sent with every message. */
  collectMetadata(): BrowserMetadata;
  /** A fresh description of a picked element (it may have moved since it was picked). */
  describePicked(picked: PickedElement): SelectedElement;
  /** Pictures of the first picked elements, sent with the message as images; absent: none. */
  takePickPictures?(picked: readonly PickedElement[]): Promise<PickPictures>;
}

export interface ToolbarActionsApi {
  createChat(): Promise<boolean>;
  switchChat(chatId: string): Promise<boolean>;
  renameChat(chatId: string, title: string): Promise<boolean>;
  deleteChat(chatId: string): Promise<boolean>;
  /**
   * Sends the composer's content; resolves true when the server accepted it. While the agent
   * works, the content waits in `queued` instead (true when it was taken) and goes when the run ends.
   */
  send(): Promise<boolean>;
  /** Sends the waiting message, when nothing runs any more; resolves true when the server accepted it. */
  sendQueued(): Promise<boolean>;
  /** Takes the waiting message back into the box. */
  editQueued(): void;
  /** Answers an approval; resolves with the refusal text, or null when accepted. */
  /** `always` remembers the answer for such calls, where the agent offers it. */
  approveTool(chatId: string, toolCallId: string, approved: boolean, reason?: string, choice?: { always?: boolean; optionId?: string }): Promise<string | null>;
  stopRun(chatId: string): Promise<boolean>;
  /** Asks `agent` to work in `mode` in the active chat (creating the chat first when there is none). */
  setMode(agent: string, mode: string): Promise<boolean>;
  /** Asks `agent` to change one of its settings (its model, say) in the active chat (creating the chat first when there is none). */
  setSetting(agent: string, setting: string, value: string): Promise<boolean>;
  /**
   * Asks `agent` to answer one of the user's questions again (Retry and Regenerate): its reply
   * is a new version of that answer, shown in its place; the earlier versions stay (‹ n/m ›).
   */
  regenerate(chatId: string, question: UserMessage, agent: string): Promise<boolean>;
  /** Shows another version of an answer or question (and what was said after it). */
  showVersion(chatId: string, messageId: string): Promise<boolean>;
}

/** The text a user sees for a failed request: the server's (or the agent's) own message. */
export function describeError(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return String(err);
}

/** Refusals after which a waiting message keeps waiting: the run, or the connection, is not over yet. */
const KEEP_WAITING = new Set(['busy', 'offline', 'disconnected', 'timeout']);

/**
 * Creates the action functions the components call.
 *
 * @example
 * const actions = createActions({ client, store, collectMetadata, describePicked });
 * await actions.send();
 */
export function createActions(env: ActionsEnv): ToolbarActionsApi {
  const { client, store } = env;

  async function chatAction(run: () => Promise<unknown>): Promise<boolean> {
    store.getState().setChatError(null);
    try {
      await run();
      return true;
    } catch (err) {
      store.getState().setChatError(describeError(err));
      return false;
    }
  }

  /**
   * Posts one message to `chatId`, or to a new chat for `agent` when none is open, with pictures
   * of its picks; resolves with what the composer should say of the pictures it went without.
   */
  async function deliver(chatId: string | null, content: UserContentPart[], agent: string | undefined, clientMessageId: string, editOf?: string): Promise<string | null> {
    // Picked elements are read now: they are the page context, which may have moved since.
    const picked = store.getState().picked.slice(0, LIMITS.maxSelectedElements);
    const pictures = env.takePickPictures && picked.length ? addPickPictures(content, await env.takePickPictures(picked)) : { content, missed: [] };
    const id = chatId ?? (await client.request('chat.create', agent ? { agent } : {})).chatId;
    const metadata = { source: 'toolbar' as const, browser: env.collectMetadata(), selectedElements: picked.map(env.describePicked) };
    await client.request('message.send', { chatId: id, content: pictures.content, metadata, ...(agent ? { agent } : {}), ...(editOf ? { editOf } : {}), clientMessageId });
    // The picks now show on the sent message, and the next one goes without them unless picked again.
    if (picked.length) store.setState({ picked: store.getState().picked.filter((p) => !picked.includes(p)), sentPicks: picked });
    return pictures.missed.length ? describeMissedPictures(pictures.missed) : null;
  }

  // The view in which a waiting message was last refused as busy (or offline): it is tried again
  // only once the server says something new, not in a loop on the same answer.
  let heldAt: SyncView | null = null;

  /** Sends `request` for the active chat, or for a new one for `agent`: a choice made before the first message belongs to the chat that message will start. */
  function inChat(agent: string, request: (chatId: string) => Promise<unknown>): Promise<unknown> {
    const chatId = store.getState().sync.state?.activeChatId;
    return chatId ? request(chatId) : client.request('chat.create', { agent }).then((created) => request(created.chatId));
  }

  return {
    async createChat() {
      const state = store.getState().sync.state;
      // An empty chat is already a new chat: "+" again goes there instead of piling up empty ones.
      const active = state?.activeChatId ? state.chats[state.activeChatId] : undefined;
      if (active && active.messageCount === 0) return true;
      const empty = selectChatsSorted(store.getState()).find((c) => c.messageCount === 0);
      if (empty) return chatAction(() => client.request('chat.switch', { chatId: empty.id }));
      const agent = selectComposerAgent(store.getState());
      return chatAction(() => client.request('chat.create', agent ? { agent } : {}));
    },
    switchChat(chatId) {
      return chatAction(() => client.request('chat.switch', { chatId }));
    },
    renameChat(chatId, title) {
      return chatAction(() => client.request('chat.rename', { chatId, title }));
    },
    async deleteChat(chatId) {
      const wasActive = store.getState().sync.state?.activeChatId === chatId;
      const deleted = await chatAction(() => client.request('chat.delete', { chatId }));
      if (!deleted || !wasActive) return deleted;
      // The server leaves no chat active; the user expects to land in the most recent other one.
      const next = selectChatsSorted(store.getState()).find((c) => c.id !== chatId);
      if (next && store.getState().sync.state?.activeChatId === null) await chatAction(() => client.request('chat.switch', { chatId: next.id }));
      return true;
    },
    stopRun(chatId) {
      // Stop ends what would have happened by itself: the waiting message goes back in the box.
      unqueue(store);
      return chatAction(() => client.request('run.stop', { chatId }));
    },
    setMode(agent, mode) {
      return chatAction(() => inChat(agent, (chatId) => client.request('mode.set', { chatId, agent, mode })));
    },
    setSetting(agent, setting, value) {
      return chatAction(() => inChat(agent, (chatId) => client.request('setting.set', { chatId, agent, setting, value })));
    },

    regenerate(chatId, question, agent) {
      const blocker = selectSendBlocker(store.getState());
      if (blocker) {
        store.getState().setChatError(blocker);
        return Promise.resolve(false);
      }
      return chatAction(() => client.request('message.regenerate', { chatId, messageId: question.id, agent }));
    },
    showVersion(chatId, messageId) {
      return chatAction(() => client.request('version.set', { chatId, messageId }));
    },

    async approveTool(chatId, toolCallId, approved, reason, choice) {
      const trimmed = reason?.trim();
      try {
        await client.request('tool.approve', {
          chatId,
          toolCallId,
          approved,
          ...(trimmed ? { reason: trimmed.slice(0, LIMITS.maxReasonLength) } : {}),
          ...(choice?.always ? { always: true } : {}),
          ...(choice?.optionId ? { optionId: choice.optionId } : {}),
        });
        return null;
      } catch (err) {
        return describeError(err);
      }
    },

    async send() {
      const s = store.getState();
      if (s.sending) return false;
      const blocker = selectComposerBlocker(s);
      if (blocker) {
        s.setComposerError(blocker);
        return false;
      }
      const built = buildContent(s.draft, s.attachments);
      if (!built.ok) {
        if (built.error) s.setComposerError(built.error);
        return false;
      }
      const agent = selectComposerAgent(s) ?? undefined;
      // A message that waits for the run goes at the end when it can: it edits nothing.
      if (s.sync.state?.run) {
        store.setState({ editing: null });
        return queueComposer(store, agent ?? null);
      }
      // An edit of a message still in the chat shown: another chat's message is not there to branch from.
      const editOf = s.editing && selectMessages(s).some((m) => m.id === s.editing) ? s.editing : undefined;
      const draft = s.draft;
      const sentAttachments = new Set(s.attachments.map((a) => a.id));
      const clientMessageId = s.pendingClientMessageId ?? makeId('cm');
      store.setState({ sending: true, composerError: null, pendingClientMessageId: clientMessageId });

      try {
        const missed = await deliver(store.getState().sync.state?.activeChatId ?? null, built.content, agent, clientMessageId, editOf);
        // Clear only what was sent: the developer may have typed on while the request was out.
        const now = store.getState();
        store.setState({
          sending: false,
          draft: now.draft === draft ? '' : now.draft,
          attachments: now.attachments.filter((a) => !sentAttachments.has(a.id)),
          pendingClientMessageId: null,
          editing: null,
          ...(missed ? { composerError: missed } : {}),
        });
        return true;
      } catch (err) {
        store.setState({ sending: false, composerError: describeError(err) });
        return false;
      }
    },

    async sendQueued() {
      const s = store.getState();
      const waiting = s.queued;
      if (!waiting || !isQueueReady(store) || s.sync === heldAt) return false;
      if (s.sync.state?.activeChatId !== waiting.chatId) return false;
      const built = buildContent(waiting.draft, waiting.attachments);
      if (!built.ok) {
        store.setState({ ...takeBack(s), composerError: built.error });
        return false;
      }
      store.setState({ sending: true });
      try {
        const missed = await deliver(waiting.chatId, built.content, waiting.agent ?? undefined, waiting.clientMessageId);
        store.setState({ sending: false, queued: null, ...(missed ? { composerError: missed } : {}) });
        return true;
      } catch (err) {
        if (err instanceof RequestError && KEEP_WAITING.has(err.code)) {
          heldAt = store.getState().sync;
          store.setState({ sending: false });
        } else {
          store.setState({ ...takeBack(store.getState()), sending: false, composerError: describeError(err) });
        }
        return false;
      }
    },

    editQueued() {
      unqueue(store);
    },
  };
}
