import { useRef, useState } from 'preact/hooks';
import { useServices, useToolbar } from '../context.ts';
import { Alert } from './Alert.tsx';
import { ChatTabs } from './ChatTabs.tsx';
import { Composer } from './Composer.tsx';
import { Header } from './Header.tsx';
import { MessageList } from './MessageList.tsx';
import { ResizeHandle } from './ResizeHandle.tsx';

function carriesFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
}

/** The open toolbar: header, chats, messages, composer. Files dropped anywhere on it are attached; Escape closes it. */
export function Panel({ autoFocus, onClose }: { autoFocus: boolean; onClose(): void }) {
  const { store, attachFiles } = useServices();
  const width = useToolbar((s) => s.width);
  const height = useToolbar((s) => s.height);
  const chatError = useToolbar((s) => s.chatError);
  const [dropping, setDropping] = useState(false);
  const depth = useRef(0);

  return (
    <section
      class="ab-panel"
      aria-label="agentbar"
      style={{ width: `${width}px`, height: `${height}px` }}
      onKeyDown={(e) => {
        // Dialogs, the rename box and the picker handle their own Escape first (and mark it handled).
        if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
        e.preventDefault();
        onClose();
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
      <ResizeHandle />
      <Header onClose={onClose} />
      <ChatTabs />
      {chatError ? <Alert message={chatError} onDismiss={() => store.getState().setChatError(null)} /> : null}
      <MessageList />
      <Composer autoFocus={autoFocus} />
      {dropping ? (
        <div class="ab-drop" aria-hidden="true">
          Drop files to attach
        </div>
      ) : null}
    </section>
  );
}
