import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices, useToolbar } from '../context.ts';
import { Alert } from './Alert.tsx';
import { ChatList } from './ChatList.tsx';
import { ChatTabs } from './ChatTabs.tsx';
import { Composer, focusComposer } from './Composer.tsx';
import { Header } from './Header.tsx';
import { MessageList } from './MessageList.tsx';
import { ResizeHandle } from './ResizeHandle.tsx';
import { isComposing } from './is-composing.ts';

function carriesFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
}

/** The open toolbar: header, chats, messages, composer. Files dropped anywhere on it are attached; Escape closes it. */
export function Panel({ autoFocus, onClose }: { autoFocus: boolean; onClose(): void }) {
  const { store, attachFiles } = useServices();
  const width = useToolbar((s) => s.width);
  const height = useToolbar((s) => s.height);
  const chatError = useToolbar((s) => s.chatError);
  const picking = useToolbar((s) => s.picking);
  const connected = useToolbar((s) => s.sync.status === 'connected' && s.sync.state !== null);
  const [dropping, setDropping] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const listButton = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const depth = useRef(0);

  // The list needs the server (every action in it is a request): it closes when the connection drops.
  useEffect(() => {
    if (!connected) setListOpen(false);
  }, [connected]);

  const closeList = (opened: boolean) => {
    setListOpen(false);
    // After opening a chat the developer types next; otherwise back where they were.
    if (opened && panel.current) focusComposer(panel.current);
    else listButton.current?.focus();
  };

  return (
    <section
      ref={panel}
      class={picking ? 'ab-panel ab-picking' : 'ab-panel'}
      aria-label="agentbar"
      style={{ width: `${width}px`, height: `${height}px` }}
      onKeyDown={(e) => {
        // Dialogs, the rename box and the picker handle their own Escape first (and mark it handled).
        if (e.key !== 'Escape' || e.defaultPrevented || isComposing(e)) return;
        e.preventDefault();
        // An open chat list is what Escape closes, even before it has taken the focus.
        if (listOpen) closeList(false);
        else onClose();
      }}
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDropping(true);
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDropping(false);
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setDropping(false);
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length) void attachFiles(files);
      }}
    >
      <Header onClose={onClose} listOpen={listOpen} onToggleList={() => (listOpen ? closeList(false) : setListOpen(true))} listButton={listButton} />
      <ChatTabs onShowAll={() => setListOpen(true)} />
      {chatError ? <Alert message={chatError} onDismiss={() => store.getState().setChatError(null)} /> : null}
      {/* Before the messages in the Tab order, drawn after them (CSS order): the message box is a
          few stops from the header, not after every message's buttons. */}
      <Composer autoFocus={autoFocus} />
      <MessageList />
      {listOpen ? <ChatList onClose={closeList} /> : null}
      {/* Last in the Tab order: the corner is drawn first, but rarely what the keyboard wants. */}
      <ResizeHandle />
      {dropping ? (
        <div class="ab-drop" aria-hidden="true">
          Drop files to attach
        </div>
      ) : null}
    </section>
  );
}
