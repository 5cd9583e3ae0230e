import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { describeChatCost } from '../../shared/format.ts';
import type { ChatInfo } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { chatAgents, filterChats } from '../filter-chats.ts';
import { formatChatDate, formatFullDate } from '../formatters.ts';
import { selectActiveChatId, selectChatsSorted } from '../selectors.ts';
import { DeleteChatDialog } from './DeleteChatDialog.tsx';
import { CloseIcon, PencilIcon, TrashIcon } from './icons.tsx';
import { chatTitle, messageCountLabel } from '../chat-labels.ts';
import { RenameForm } from './RenameForm.tsx';

/** The buttons of one row, left to right: open, rename, delete. */
const COLUMNS = 3;

/**
 * The roving Tab stop: a chat (rows move when chats are renamed or updated, so the chat, not its
 * index, is what focus follows) and a button of its row. `row` is where it last was, for when the
 * chat is gone (deleted here or elsewhere): the row that took its place gets the stop.
 */
interface Cell {
  id: string | null;
  row: number;
  col: number;
}

/**
 * The size first: a row cut short by a narrow panel loses the end of a long agent list, not "29 me…";
 * then what the chat cost, where an agent said.
 */
function describeChat(chat: ChatInfo, running: boolean): string {
  const agents = chatAgents(chat);
  return [messageCountLabel(chat), describeChatCost(chat), running ? 'the agent is working here' : null, agents.length ? agents.join(', ') : null].filter(Boolean).join(' · ');
}

/**
 * Every chat, most recent first, over the panel: a search box, then one row per chat with its
 * title, agents, last activity and size, and buttons to open, rename or delete it. The rows are
 * one Tab stop: the arrow keys move between rows (Up/Down, Home/End) and buttons (Left/Right),
 * F2 renames and Delete deletes the row in focus. Escape closes the list; `opened` says a chat was
 * opened from it (the caller then moves focus to the composer).
 */
export function ChatList({ onClose }: { onClose(opened: boolean): void }) {
  const { actions } = useServices();
  const chats = useToolbar(selectChatsSorted);
  const activeId = useToolbar(selectActiveChatId);
  const connected = useToolbar((s) => s.sync.status === 'connected');
  const runningId = useToolbar((s) => s.sync.state?.run?.chatId ?? null);
  const [query, setQuery] = useState('');
  const [cell, setCell] = useState<Cell>({ id: null, row: 0, col: 0 });
  const [renamingState, setRenamingId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ChatInfo | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  /** Set when focus should follow `cell` after the next render (keyboard moves, closing an editor). */
  const focusCell = useRef(false);
  const found = useMemo(() => filterChats(chats, query), [chats, query]);
  // A chat deleted (or filtered out) while its title was being edited ends the edit.
  const renamingId = renamingState !== null && found.some((c) => c.id === renamingState) ? renamingState : null;
  const now = Date.now();

  // Rows come and go (search, deletes, other clients): keep the roving cell on an existing row.
  const at = cell.id === null ? -1 : found.findIndex((c) => c.id === cell.id);
  const row = at >= 0 ? at : Math.min(cell.row, Math.max(0, found.length - 1));

  useEffect(() => search.current?.focus(), []);

  useLayoutEffect(() => {
    if (!focusCell.current) return;
    focusCell.current = false;
    const target = list.current?.querySelector<HTMLElement>(`[data-row="${row}"][data-col="${cell.col}"]`);
    (target ?? search.current)?.focus();
  });

  const moveTo = (next: { row: number; col: number }) => {
    focusCell.current = true;
    const r = Math.max(0, Math.min(found.length - 1, next.row));
    setCell({ id: found[r]?.id ?? null, row: r, col: Math.max(0, Math.min(COLUMNS - 1, next.col)) });
  };

  const open = async (chat: ChatInfo) => {
    if (chat.id !== activeId && !(await actions.switchChat(chat.id))) return;
    onClose(true);
  };

  const onListKey = (e: KeyboardEvent) => {
    if (renamingId || found.length === 0) return;
    const chat = found[row];
    switch (e.key) {
      case 'ArrowDown':
        moveTo({ row: row + 1, col: cell.col });
        break;
      case 'ArrowUp':
        if (row === 0) search.current?.focus();
        else moveTo({ row: row - 1, col: cell.col });
        break;
      case 'Home':
        moveTo({ row: 0, col: cell.col });
        break;
      case 'End':
        moveTo({ row: found.length - 1, col: cell.col });
        break;
      case 'ArrowRight':
        moveTo({ row, col: cell.col + 1 });
        break;
      case 'ArrowLeft':
        moveTo({ row, col: cell.col - 1 });
        break;
      case 'F2':
        if (chat && connected) setRenamingId(chat.id);
        break;
      case 'Delete':
        if (chat && connected) setConfirming(chat);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  // Focus stays inside while the list covers the panel: Tab from the last stop goes to the first.
  const onDialogKey = (e: KeyboardEvent) => {
    // The rename box and the delete confirmation handle their own keys first.
    if (e.defaultPrevented) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose(false);
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const stops = [...dialog.current.querySelectorAll<HTMLElement>('input, button:not([tabindex="-1"]):not(:disabled)')];
    const active = (dialog.current.getRootNode() as ShadowRoot | Document).activeElement;
    if (e.shiftKey && active === stops[0]) {
      e.preventDefault();
      stops[stops.length - 1]?.focus();
    } else if (!e.shiftKey && active === stops[stops.length - 1]) {
      e.preventDefault();
      stops[0]?.focus();
    }
  };

  const cellProps = (r: number, c: number) => ({
    'data-row': r,
    'data-col': c,
    tabIndex: r === row && c === cell.col ? 0 : -1,
    onFocus: () => {
      if (r !== row || c !== cell.col) setCell({ id: found[r]?.id ?? null, row: r, col: c });
    },
  });

  return (
    <div ref={dialog} class="ab-chat-list" role="dialog" aria-modal="true" aria-label="All chats" onKeyDown={onDialogKey}>
      <div class="ab-chat-list-head">
        <input
          ref={search}
          type="search"
          class="ab-chat-search"
          aria-label="Search chats"
          placeholder={`Search ${chats.length} chat${chats.length === 1 ? '' : 's'}`}
          value={query}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setCell({ id: null, row: 0, col: 0 });
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && found.length) {
              e.preventDefault();
              moveTo({ row: 0, col: 0 });
            } else if (e.key === 'Enter' && found[0]) {
              e.preventDefault();
              void open(found[0]);
            } else if (e.key === 'Escape' && query) {
              // The first Escape clears the search, the next one closes the list.
              e.preventDefault();
              setQuery('');
            }
          }}
        />
        <button type="button" class="ab-icon-btn" aria-label="Close chat list" title="Close (Esc)" onClick={() => onClose(false)}>
          <CloseIcon size={14} />
        </button>
      </div>
      {found.length === 0 ? (
        <p class="ab-chat-list-empty" role="status">
          {chats.length === 0 ? 'No chats yet.' : `No chat matches “${query.trim()}”.`}
        </p>
      ) : (
        <ul ref={list} class="ab-chat-rows" aria-label={query.trim() ? `${found.length} of ${chats.length} chats` : 'Chats, most recent first'} onKeyDown={onListKey}>
          {found.map((chat, r) => {
            const active = chat.id === activeId;
            const running = chat.id === runningId;
            if (chat.id === renamingId) {
              return (
                <li key={chat.id} class="ab-chat-row ab-renaming">
                  <RenameForm
                    chat={chat}
                    onDone={() => {
                      setRenamingId(null);
                      focusCell.current = true;
                    }}
                  />
                </li>
              );
            }
            return (
              <li key={chat.id} class={active ? 'ab-chat-row ab-active' : 'ab-chat-row'}>
                <button
                  type="button"
                  class="ab-chat-open"
                  aria-current={active ? 'true' : undefined}
                  disabled={!connected && !active}
                  onClick={() => void open(chat)}
                  {...cellProps(r, 0)}
                >
                  <span class="ab-chat-row-title">
                    {chatTitle(chat)}
                    {running ? <span class="ab-tab-running" aria-hidden="true" /> : null}
                  </span>
                  <span class="ab-chat-row-meta">
                    <span>{describeChat(chat, running)}</span>
                    <time dateTime={new Date(chat.updatedAt).toISOString()} title={formatFullDate(chat.updatedAt)}>
                      {formatChatDate(chat.updatedAt, now)}
                    </time>
                  </span>
                </button>
                <button
                  type="button"
                  class="ab-icon-btn"
                  aria-label={`Rename “${chatTitle(chat)}”`}
                  title="Rename (F2)"
                  disabled={!connected}
                  onClick={() => setRenamingId(chat.id)}
                  {...cellProps(r, 1)}
                >
                  <PencilIcon size={12} />
                </button>
                <button
                  type="button"
                  class="ab-icon-btn"
                  aria-label={`Delete “${chatTitle(chat)}”`}
                  title="Delete (Del)"
                  disabled={!connected}
                  onClick={() => setConfirming(chat)}
                  {...cellProps(r, 2)}
                >
                  <TrashIcon size={12} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {confirming ? (
        <DeleteChatDialog
          chat={confirming}
          onCancel={() => {
            setConfirming(null);
            focusCell.current = true;
          }}
          onConfirm={() => {
            const chat = confirming;
            setConfirming(null);
            void actions.deleteChat(chat.id).then(() => {
              // The next row (now at this index) takes the focus, or the search box when none is left.
              focusCell.current = true;
              setCell((c) => ({ ...c, id: null, col: 0 }));
            });
          }}
        />
      ) : null}
    </div>
  );
}
