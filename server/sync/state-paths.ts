/**
 * Every JSON Pointer the server writes, in one place (PROTOCOL §3 state shape). `statePath` points
 * into the whole state (StateStore.change); `messagePath` points into one chat's message array
 * (ChatManager.edit and the chat's journal), so the same op serves the state and the disk.
 */
import type { ChatInfo } from '../../shared/schemas.ts';

/** Escapes one reference token (RFC 6901): ids are checked elsewhere, this keeps a pointer a pointer. */
function escapeToken(token: string): string {
  return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token;
}

/**
 * Paths into the state.
 *
 * @example store.change([{ op: 'replace', path: statePath.chatField(chatId, 'title'), value: 'Header' }]);
 */
export const statePath = {
  run: '/run',
  runMessageId: '/run/messageId',
  activeChatId: '/activeChatId',
  active: '/active',
  /** Prefix that turns a message path of the active chat into a state path. */
  activeMessages: '/active/messages',
  chat: (chatId: string) => `/chats/${escapeToken(chatId)}`,
  chatField: (chatId: string, field: keyof ChatInfo) => `/chats/${escapeToken(chatId)}/${field}`,
  agentActiveSkill: (agentIndex: number) => `/agents/${agentIndex}/activeSkill`,
  agentCommands: (agentIndex: number) => `/agents/${agentIndex}/commands`,
  agentModes: (agentIndex: number) => `/agents/${agentIndex}/modes`,
  agentSettings: (agentIndex: number) => `/agents/${agentIndex}/settings`,
} as const;

/**
 * Paths into one chat's message array.
 *
 * @example chats.edit(chatId, [{ op: 'append', path: messagePath.partText(3, 0), value: 'abc' }]);
 */
export const messagePath = {
  /** Appends a message. */
  end: '/-',
  status: (messageIndex: number) => `/${messageIndex}/status`,
  error: (messageIndex: number) => `/${messageIndex}/error`,
  /** Appends a part to a message. */
  partsEnd: (messageIndex: number) => `/${messageIndex}/content/-`,
  partText: (messageIndex: number, partIndex: number) => `/${messageIndex}/content/${partIndex}/text`,
  partState: (messageIndex: number, partIndex: number) => `/${messageIndex}/content/${partIndex}/state`,
  /** Any other field of a part (a tool call's title, locations, display…). */
  partField: (messageIndex: number, partIndex: number, field: string) => `/${messageIndex}/content/${partIndex}/${escapeToken(field)}`,
  /** A message's plan (set with `add`, moved with `remove`). */
  plan: (messageIndex: number) => `/${messageIndex}/plan`,
  /** A message's notices (the first set with `add`, later ones appended). */
  notices: (messageIndex: number) => `/${messageIndex}/notices`,
  noticesEnd: (messageIndex: number) => `/${messageIndex}/notices/-`,
} as const;
