import type { ChatInfo } from '../shared/schemas.ts';

/** What a chat is called in the toolbar: its title, or "Untitled chat" when it has none. */
export function chatTitle(chat: ChatInfo): string {
  return chat.title.trim() || 'Untitled chat';
}

/**
 * A chat's size in words.
 *
 * @example messageCountLabel({ ...chat, messageCount: 1 }) // "1 message"
 */
export function messageCountLabel(chat: ChatInfo): string {
  return `${chat.messageCount} message${chat.messageCount === 1 ? '' : 's'}`;
}
