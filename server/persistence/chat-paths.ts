import path from 'node:path';
import { isValidId } from '../../shared/ids.ts';
import { InvalidChatIdError } from './chat-repository.ts';

export const CHAT_EXT = '.jsonl';
export const JOURNAL_EXT = '.journal';

export interface ChatPaths {
  chat: string;
  journal: string;
}

/**
 * Builds the two file paths of a chat, refusing any id that is not a plain server-made id or that
 * would resolve outside `chatsDir` (checked twice on purpose: the pattern today, the folder always).
 *
 * @example resolveChatPaths('/data/chats', 'chat_abc').chat // '/data/chats/chat_abc.jsonl'
 */
export function resolveChatPaths(chatsDir: string, chatId: unknown): ChatPaths {
  if (!isValidId(chatId) || chatId === '.' || chatId === '..') throw new InvalidChatIdError(chatId);
  const root = path.resolve(chatsDir);
  const chat = path.resolve(root, chatId + CHAT_EXT);
  const journal = path.resolve(root, chatId + JOURNAL_EXT);
  if (path.dirname(chat) !== root || path.dirname(journal) !== root) throw new InvalidChatIdError(chatId);
  return { chat, journal };
}

/** The chat id of a chat or journal file name, or null for any other file. */
export function parseChatFileName(name: string): { chatId: string; kind: 'chat' | 'journal' } | null {
  const kind = name.endsWith(CHAT_EXT) ? 'chat' : name.endsWith(JOURNAL_EXT) ? 'journal' : null;
  if (!kind) return null;
  const chatId = name.slice(0, -(kind === 'chat' ? CHAT_EXT : JOURNAL_EXT).length);
  return isValidId(chatId) ? { chatId, kind } : null;
}
