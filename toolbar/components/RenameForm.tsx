import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../shared/limits.ts';
import type { ChatInfo } from '../../shared/schemas.ts';
import { useServices } from '../context.ts';
import { CheckIcon, CloseIcon } from './icons.tsx';

/**
 * An inline title editor: Enter saves through `chat.rename`, Escape cancels (and is marked
 * handled, so the panel or the chat list around it stays open).
 */
export function RenameForm({ chat, onDone }: { chat: ChatInfo; onDone(): void }) {
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
