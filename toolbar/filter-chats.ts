import type { ChatInfo } from '../shared/schemas.ts';

/** The agents that answered in a chat (older chats only know the one they were made for). */
export function chatAgents(chat: ChatInfo): readonly string[] {
  return chat.agents?.length ? chat.agents : chat.agent ? [chat.agent] : [];
}

/**
 * The chats whose title or agents hold every word of `query` (any case, any order); all of them
 * for an empty query. The order given is kept.
 *
 * @example filterChats(chats, 'login guide') // chats titled "…login…" answered by demo/guide
 */
export function filterChats(chats: readonly ChatInfo[], query: string): readonly ChatInfo[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return chats;
  return chats.filter((chat) => {
    const haystack = `${chat.title}\n${chatAgents(chat).join('\n')}`.toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
