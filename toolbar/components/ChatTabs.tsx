import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../shared/limits.ts';
import type { ChatInfo } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectActiveChatId, selectChatsSorted } from '../selectors.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { CheckIcon, CloseIcon, PencilIcon, TrashIcon } from './icons.tsx';

function chatTitle(chat: ChatInfo): string {
  return chat.title.trim() || 'Untitled chat';
}

function RenameForm({ chat, onDone }: { chat: ChatInfo; onDone(): void }) {
  const { actions } = useServices();
  const [title, setTitle] = useState(chat.title);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const save = async () => {
    const next = title.trim();
    if (!next || busy) return;
    if (next === chat.title) {
      onDone();
      return;
    }
    setBusy(true);
    const ok = await actions.renameChat(chat.id, next);
    setBusy(false);
    // On a refusal the alert says why and the editor stays, so nothing typed is lost.
    if (ok) onDone();
  };

  return (
    <form
      class="ab-rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input
        ref={input}
        type="text"
        aria-label="Chat title"
        value={title}
        maxLength={LIMITS.maxTitleLength}
        disabled={busy}
        onInput={(e) => setTitle(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <button type="submit" class="ab-icon-btn" aria-label="Save title" disabled={busy || !title.trim()}>
        <CheckIcon size={13} />
      </button>
      <button type="button" class="ab-icon-btn" aria-label="Cancel rename" onClick={onDone}>
        <CloseIcon size={13} />
      </button>
    </form>
  );
}

/**
 * The chats, most recent first: a button per chat switches to it; the active one can be renamed
 * inline or deleted after a confirmation.
 */
export function ChatTabs() {
  const { actions } = useServices();
  const chats = useToolbar(selectChatsSorted);
  const activeId = useToolbar(selectActiveChatId);
  const connected = useToolbar((s) => s.sync.status === 'connected');
  // The chat the agent works in, so a run outside the active chat can be found (and stopped there).
  const runningId = useToolbar((s) => s.sync.state?.run?.chatId ?? null);
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState<ChatInfo | null>(null);
  const strip = useRef<HTMLDivElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);

  useEffect(() => setRenaming(false), [activeId]);

  // Back to the Rename button after the editor closes, so keyboard users keep their place.
  useEffect(() => {
    if (wasRenaming.current && !renaming) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  // Keep the active chat in view inside the strip without scrolling the page.
  useLayoutEffect(() => {
    const container = strip.current;
    const tab = container?.querySelector<HTMLElement>('.ab-tab.ab-active');
    if (!container || !tab) return;
    const left = tab.offsetLeft - container.offsetLeft;
    if (left < container.scrollLeft) container.scrollLeft = left - 8;
    else if (left + tab.offsetWidth > container.scrollLeft + container.clientWidth) {
      container.scrollLeft = left + tab.offsetWidth - container.clientWidth + 8;
    }
  }, [activeId, chats]);

  return (
    <>
      <div class="ab-chats" ref={strip} role="group" aria-label="Chats">
        {chats.map((chat) => {
          const active = chat.id === activeId;
          if (active && renaming) {
            return (
              <div key={chat.id} class="ab-tab ab-active">
                <RenameForm chat={chat} onDone={() => setRenaming(false)} />
              </div>
            );
          }
          return (
            <div key={chat.id} class={active ? 'ab-tab ab-active' : 'ab-tab'}>
              <button
                type="button"
                class="ab-tab-btn"
                aria-current={active ? 'true' : undefined}
                title={`${chatTitle(chat)} · ${chat.messageCount} message${chat.messageCount === 1 ? '' : 's'}${chat.id === runningId ? ' · the agent is working here' : ''}`}
                disabled={!connected && !active}
                onClick={() => {
                  if (!active) void actions.switchChat(chat.id);
                }}
              >
                {chatTitle(chat)}
                {chat.id === runningId ? <span class="ab-tab-running" aria-hidden="true" /> : null}
              </button>
              {active ? (
                <span class="ab-tab-tools">
                  <button
                    ref={renameButton}
                    type="button"
                    class="ab-icon-btn"
                    aria-label="Rename chat"
                    title="Rename chat"
                    disabled={!connected}
                    onClick={() => setRenaming(true)}
                  >
                    <PencilIcon size={12} />
                  </button>
                  <button
                    ref={deleteButton}
                    type="button"
                    class="ab-icon-btn"
                    aria-label="Delete chat"
                    title="Delete chat"
                    disabled={!connected}
                    onClick={() => setConfirming(chat)}
                  >
                    <TrashIcon size={12} />
                  </button>
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Delete chat?"
          message={`“${chatTitle(confirming)}” and its ${confirming.messageCount} message${confirming.messageCount === 1 ? '' : 's'} will be deleted for good.`}
          confirmLabel="Delete"
          onCancel={() => {
            setConfirming(null);
            deleteButton.current?.focus();
          }}
          onConfirm={() => {
            const chat = confirming;
            setConfirming(null);
            void actions.deleteChat(chat.id);
          }}
        />
      ) : null}
    </>
  );
}
