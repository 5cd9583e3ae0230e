import type { State } from './schemas.ts';

/**
 * The agent a message goes to when the developer chose none: the chat's last agent when it can
 * still answer, else the first implemented one (the server's rule, PROTOCOL §4).
 *
 * @example
 * defaultAgent(state, 'chat_1') // 'wisp/concierge'
 */
export function defaultAgent(state: State | null, chatId: string | null): string | null {
  if (!state) return null;
  const chatAgent = chatId ? state.chats[chatId]?.agent : undefined;
  if (chatAgent && state.agents.some((a) => a.id === chatAgent && a.implemented)) return chatAgent;
  return state.agents.find((a) => a.implemented)?.id ?? null;
}
