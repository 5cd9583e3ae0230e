import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ChatInfo } from '../../shared/schemas.ts';
import { formatChatMarkdown } from '../../shared/chat-markdown.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectActiveChatId, selectChatsSorted, selectMessages } from '../selectors.ts';
import { DeleteChatDialog } from './DeleteChatDialog.tsx';
import { CopyButton } from './MessageTools.tsx';
import { PencilIcon, TrashIcon } from './icons.tsx';
import { chatTitle, messageCountLabel } from '../chat-labels.ts';
import { RenameForm } from './RenameForm.tsx';
import { focusComposer } from './Composer.tsx';

/**
 * The chats, most recent first: a button per chat switches to it; the active one can be renamed
 * inline or deleted after a confirmation. The strip is one Tab stop; Left/Right move along it.
 * "All chats" in the header lists them all with search (ChatList). When the strip overflows, its
 * cut edges fade and a "+N" button (the chats not wholly in view) opens that list.
 */
export function ChatTabs({ onShowAll }: { onShowAll(): void }) {
  const { actions, store } = useServices();
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

  // After a delete from here, once the chat that opened instead is drawn: its tab, or the message box.
  const [refocus, setRefocus] = useState(0);
  const rootNode = useRef<Node | null>(null);
  useEffect(() => {
    if (refocus === 0) return;
    const next = strip.current?.querySelector<HTMLButtonElement>('.ab-tab.ab-active .ab-tab-btn') ?? strip.current?.querySelector<HTMLButtonElement>('.ab-tab-btn');
    if (next) next.focus();
    else if (rootNode.current) focusComposer(rootNode.current);
  }, [refocus]);

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

  const hidden = useHiddenTabs(strip, chats);

  // One Tab stop for the whole strip (the active chat); the arrow keys move between chats.
  const onStripKey = (e: KeyboardEvent) => {
    const buttons = [...(strip.current?.querySelectorAll<HTMLButtonElement>('.ab-tab-btn') ?? [])];
    const at = buttons.findIndex((b) => b === e.target);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
  };
  const tabStopId = chats.some((c) => c.id === activeId) ? activeId : chats[0]?.id;

  return (
    <>
      <div class={chats.length ? 'ab-chats-row' : 'ab-chats-row ab-empty'}>
      <div class={`ab-chats${hidden.before ? ' ab-fade-start' : ''}${hidden.after ? ' ab-fade-end' : ''}`} ref={strip} role="group" aria-label="Chats" onKeyDown={onStripKey}>
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
                tabIndex={chat.id === tabStopId ? 0 : -1}
                title={`${chatTitle(chat)} · ${messageCountLabel(chat)}${chat.id === runningId ? ' · the agent is working here' : ''}`}
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
                  {chat.messageCount > 0 ? (
                    // Read when clicked: a long chat's Markdown is not made on every render.
                    <CopyButton label="Copy chat as Markdown" text={() => formatChatMarkdown({ title: chatTitle(chat), messages: selectMessages(store.getState()), head: chat.head })} />
                  ) : null}
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
      {hidden.before + hidden.after > 0 ? (
        <button type="button" class="ab-chats-more" title="All chats" aria-label={`${hidden.before + hidden.after} more chats: show all chats`} onClick={onShowAll}>
          +{hidden.before + hidden.after}
        </button>
      ) : null}
      </div>
      {confirming ? (
        <DeleteChatDialog
          chat={confirming}
          onCancel={() => {
            setConfirming(null);
            deleteButton.current?.focus();
          }}
          onConfirm={() => {
            const chat = confirming;
            setConfirming(null);
            // The dialog's button and the chat's own buttons go away: focus would fall to the page.
            rootNode.current = strip.current?.getRootNode() ?? null;
            void actions.deleteChat(chat.id).then((deleted) => (deleted ? setRefocus((n) => n + 1) : deleteButton.current?.focus()));
          }}
        />
      ) : null}
    </>
  );
}

/** How many tabs are cut off before and after the strip's visible part; measured again on scroll and resize. */
function useHiddenTabs(strip: { current: HTMLDivElement | null }, chats: readonly unknown[]): { before: number; after: number } {
  const [hidden, setHidden] = useState({ before: 0, after: 0 });
  useLayoutEffect(() => {
    const container = strip.current;
    if (!container) return;
    const measure = () => {
      const start = container.scrollLeft;
      const end = start + container.clientWidth;
      let before = 0;
      let after = 0;
      for (const tab of container.querySelectorAll<HTMLElement>('.ab-tab')) {
        const left = tab.offsetLeft - container.offsetLeft;
        // A pixel of slack: a tab that ends on the edge is in view.
        if (left < start - 1) before++;
        else if (left + tab.offsetWidth > end + 1) after++;
      }
      setHidden((h) => (h.before === before && h.after === after ? h : { before, after }));
    };
    measure();
    container.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(container);
    return () => {
      container.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [strip, chats]);
  return hidden;
}
