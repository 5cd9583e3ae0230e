/**
 * Everything the toolbar asks of the server goes through here: each action sends one request (or
 * two, for a first message without a chat) and reports a refusal as text for an inline alert.
 * None of them touches agent state: the server's patches do that.
 */
import { dataUrlBytes, MAX_ATTACHMENTS_BYTES, MAX_ATTACHMENTS_LENGTH } from '../shared/data-url.ts';
import { formatBytes } from '../shared/format.ts';
import { makeId } from '../shared/ids.ts';
import { LIMITS } from '../shared/limits.ts';
import type { BrowserMetadata, SelectedElement, UserContentPart, UserMessage } from '../shared/schemas.ts';
import type { SyncClient } from '../shared/sync-client.ts';
import { selectChatsSorted, selectComposerAgent, selectComposerBlocker, selectSendBlocker } from './selectors.ts';
import type { Attachment, PickedElement, ToolbarStore } from './store.ts';

export interface ActionsEnv {
  client: Pick<SyncClient, 'request'>;
  store: ToolbarStore;
  /** Browser metadata sent with every message. */
  collectMetadata(): BrowserMetadata;
  /** A fresh description of a picked element (it may have moved since it was picked). */
  describePicked(picked: PickedElement): SelectedElement;
}

export interface ToolbarActionsApi {
  createChat(): Promise<boolean>;
  switchChat(chatId: string): Promise<boolean>;
  renameChat(chatId: string, title: string): Promise<boolean>;
  deleteChat(chatId: string): Promise<boolean>;
  /** Sends the composer's content; resolves true when the server accepted it. */
  send(): Promise<boolean>;
  /** Answers an approval; resolves with the refusal text, or null when accepted. */
  /** `always` remembers the answer for such calls, where the agent offers it. */
  approveTool(chatId: string, toolCallId: string, approved: boolean, reason?: string, choice?: { always?: boolean; optionId?: string }): Promise<string | null>;
  stopRun(chatId: string): Promise<boolean>;
  /** Asks `agent` to work in `mode` in the active chat (creating the chat first when there is none). */
  setMode(agent: string, mode: string): Promise<boolean>;
  /** Asks `agent` to change one of its settings (its model, say) in the active chat (creating the chat first when there is none). */
  setSetting(agent: string, setting: string, value: string): Promise<boolean>;
  /**
   * Sends one of the user's earlier messages again, as a new message at the end of the chat, to
   * `agent` (Retry and Regenerate): nothing earlier is removed or rewritten.
   */
  resend(chatId: string, message: UserMessage, agent: string): Promise<boolean>;
}

/** The text a user sees for a failed request: the server's (or the agent's) own message. */
export function describeError(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return String(err);
}

/**
 * Builds the parts of a user message from the composer, or says why it cannot be sent.
 *
 * @example
 * buildContent('hi', []) // { ok: true, content: [{ type: 'text', text: 'hi' }] }
 */
export function buildContent(
  draft: string,
  attachments: readonly Attachment[],
): { ok: true; content: UserContentPart[] } | { ok: false; error: string | null } {
  const content: UserContentPart[] = [];
  if (draft.trim()) {
    if (draft.length > LIMITS.maxTextLength) {
      return { ok: false, error: `The message is ${draft.length} characters long; the limit is ${LIMITS.maxTextLength}` };
    }
    content.push({ type: 'text', text: draft });
  }
  let bytes = 0;
  for (const a of attachments) {
    bytes += a.dataUrl.length;
    content.push(
      a.kind === 'image'
        ? { type: 'image', image: a.dataUrl, mimeType: a.mimeType }
        : { type: 'file', data: a.dataUrl, filename: a.name, mimeType: a.mimeType },
    );
  }
  if (content.length === 0) return { ok: false, error: null };
  if (content.length > LIMITS.maxParts) {
    return { ok: false, error: `A message holds at most ${LIMITS.maxParts} parts; remove ${content.length - LIMITS.maxParts} attachment(s)` };
  }
  if (bytes > MAX_ATTACHMENTS_LENGTH) {
    // In the sizes the user sees on their files, not the longer base64 that carries them.
    const files = attachments.reduce((sum, a) => sum + dataUrlBytes(a.dataUrl), 0);
    return { ok: false, error: `The attachments total ${formatBytes(files)}; one message carries at most ${formatBytes(MAX_ATTACHMENTS_BYTES)}. Send some with your next message.` };
  }
  return { ok: true, content };
}

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
      return chatAction(() => client.request('run.stop', { chatId }));
    },
    setMode(agent, mode) {
      return chatAction(() => inChat(agent, (chatId) => client.request('mode.set', { chatId, agent, mode })));
    },
    setSetting(agent, setting, value) {
      return chatAction(() => inChat(agent, (chatId) => client.request('setting.set', { chatId, agent, setting, value })));
    },

    resend(chatId, message, agent) {
      const content = message.content.filter((p) => p.type !== 'tool-approval-response');
      if (content.length === 0) return Promise.resolve(false);
      const blocker = selectSendBlocker(store.getState());
      if (blocker) {
        store.getState().setChatError(blocker);
        return Promise.resolve(false);
      }
      // The page may have moved on: the browser context is today's, the picked elements the message's own.
      const metadata = { ...message.metadata, source: 'toolbar' as const, browser: env.collectMetadata() };
      return chatAction(() => client.request('message.send', { chatId, content, metadata, agent, clientMessageId: makeId('cm') }));
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
      const draft = s.draft;
      const sentAttachments = new Set(s.attachments.map((a) => a.id));
      const agent = selectComposerAgent(s) ?? undefined;
      const clientMessageId = s.pendingClientMessageId ?? makeId('cm');
      store.setState({ sending: true, composerError: null, pendingClientMessageId: clientMessageId });

      try {
        let chatId = store.getState().sync.state?.activeChatId ?? null;
        if (!chatId) {
          chatId = (await client.request('chat.create', agent ? { agent } : {})).chatId;
        }
        const metadata = {
          source: 'toolbar' as const,
          browser: env.collectMetadata(),
          selectedElements: s.picked.slice(0, LIMITS.maxSelectedElements).map(env.describePicked),
        };
        await client.request('message.send', {
          chatId,
          content: built.content,
          metadata,
          ...(agent ? { agent } : {}),
          clientMessageId,
        });
        // Clear only what was sent: the developer may have typed on while the request was out.
        // Picked elements stay: they are the page context, which the agent's tools read later too.
        const now = store.getState();
        store.setState({
          sending: false,
          draft: now.draft === draft ? '' : now.draft,
          attachments: now.attachments.filter((a) => !sentAttachments.has(a.id)),
          pendingClientMessageId: null,
        });
        return true;
      } catch (err) {
        store.setState({ sending: false, composerError: describeError(err) });
        return false;
      }
    },
  };
}
