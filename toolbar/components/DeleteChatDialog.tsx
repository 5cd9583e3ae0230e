import type { ChatInfo } from '../../shared/schemas.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { chatTitle, messageCountLabel } from '../chat-labels.ts';

/** "Delete chat?" with what will be lost; the caller deletes on confirm and puts focus back on cancel. */
export function DeleteChatDialog({ chat, onCancel, onConfirm }: { chat: ChatInfo; onCancel(): void; onConfirm(): void }) {
  return (
    <ConfirmDialog
      title="Delete chat?"
      message={`“${chatTitle(chat)}” and its ${messageCountLabel(chat)} will be deleted for good.`}
      confirmLabel="Delete"
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
